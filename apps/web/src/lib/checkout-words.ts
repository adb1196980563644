import { CHECKOUT_MESSAGES } from '@roots/contracts/messages';

/**
 * What a customer reads instead of the checkout SDK's integrator wording (issue 24: no jargon such
 * as '3DS' in customer copy). Given to every drop-in as its failure-message translations.
 */
export const CHECKOUT_FAILURE_WORDS: Record<string, string> = {
  [CHECKOUT_MESSAGES.authorizationFailedAfter3ds]:
    'Your bank did not confirm this payment, so nothing was charged. Please try again, or use another card.',
};
