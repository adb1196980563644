import { cardUpdateCheckoutSchema, cardUpdateCompleteResponseSchema } from '@roots/contracts/card-update';
import type { CardUpdateApi } from '../../../components/card-update/card-update-form';
import { postParsed } from '../../../lib/api-client';

/** `POST /api/update-card/{link}` and its `/complete` (ADR 143): the emailed link is the proof. */
export function updateCardByLink(token: string): CardUpdateApi {
  const base = `/api/update-card/${encodeURIComponent(token)}`;
  return {
    open: (signal) => postParsed(base, {}, cardUpdateCheckoutSchema, signal),
    complete: (executionId) => postParsed(`${base}/complete`, { execution_id: executionId }, cardUpdateCompleteResponseSchema),
  };
}
