import { cancelLinkDetailsSchema, cancelOutcomeSchema, type CancelLinkDetails, type CancelOutcome } from '@roots/contracts/subscriptions';
import { getJson, postParsed } from '../../../lib/api-client';

const linkPath = (token: string) => `/api/cancel-subscription/${encodeURIComponent(token)}`;

/** `GET …/details`: what an emailed cancel link names (plan, access, the guarantee's refund); changes nothing. */
export function loadCancelLinkDetails(token: string, signal: AbortSignal): Promise<CancelLinkDetails> {
  return getJson(`${linkPath(token)}/details`, cancelLinkDetailsSchema, signal);
}

/** `POST /api/cancel-subscription/{link}`: the link is the proof; `refund` asks the money-back guarantee. */
export function cancelByLink(token: string, refund: boolean): Promise<CancelOutcome> {
  return postParsed(`${linkPath(token)}${refund ? '?refund=true' : ''}`, {}, cancelOutcomeSchema);
}
