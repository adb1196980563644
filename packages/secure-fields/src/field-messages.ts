import { formatMessage, MESSAGES } from '@roots/contracts/messages';
import { CARD_NETWORK_NAMES } from '@roots/contracts/gateway-constants';
import type { Network } from './card-rules';

/**
 * The texts a secure field shows under its input, all from the product spec's catalogue (§5, §8)
 * through `@roots/contracts/messages` — nothing is worded here. Card fields say 'Fill in the field'
 * when empty, incomplete or invalid (the spec gives the card form no other text), and
 * 'Discover cards are not accepted.' for a rejected network. ADR 043 records the reading.
 */

/** Display names of the networks, for the 'not accepted' message: the contracts' one name each. */
export const NETWORK_NAMES: Record<Network, string> = CARD_NETWORK_NAMES;

/** The spec's 'Discover cards are not accepted.', for any rejected network. */
export function networkNotAcceptedMessage(network: Network): string {
  return formatMessage(MESSAGES.discoverNotAccepted.replace('Discover', '{network}'), { network: NETWORK_NAMES[network] });
}

/** What a field knows about its value when it decides on a message. */
export type FieldCheck = {
  isEmpty: boolean;
  /** The value passes the field's own rules (Luhn, length, expiry, …). */
  valid: boolean;
  required: boolean;
  /** The detected card network is one the form rejects (card number only). */
  rejectedNetwork?: Network | undefined;
  /** Card fields say 'Fill in the field'; other collect elements use the generic form texts. */
  kind: 'card' | 'input';
  /** Text of the first failing validation rule of a collect element, when it has one. */
  ruleError?: string | undefined;
  /** The value reached the element's maximum length (collect elements). */
  atMaxLength?: boolean;
};

/** The message under a field; empty when there is nothing to say. */
export function fieldMessage(check: FieldCheck): string {
  if (check.isEmpty) return check.required ? (check.kind === 'card' ? MESSAGES.fillInField : MESSAGES.fieldRequired) : '';
  if (check.rejectedNetwork) return networkNotAcceptedMessage(check.rejectedNetwork);
  if (check.valid) return check.atMaxLength ? MESSAGES.maxLength : '';
  return check.ruleError ?? MESSAGES.fillInField;
}
