import { cancelOutcomeSchema, type CancelOutcome } from '@roots/contracts/subscriptions';
import { postParsed } from '../../../lib/api-client';

/** `POST /api/cancel-request` (product-spec §4): without a code, emails one; with it, cancels. */
export function requestCancel(body: { email: string; code?: string }): Promise<CancelOutcome> {
  return postParsed(
    '/api/cancel-request',
    { ...body, host: window.location.host, emailing: true, inAppUnsubscribe: false },
    cancelOutcomeSchema,
  );
}
