import { describe, expect, it } from 'vitest';
import { CARD_NETWORKS } from './card-rules';
import { fieldMessage, networkNotAcceptedMessage, type FieldCheck } from './field-messages';

const card = { isEmpty: false, valid: true, required: true, kind: 'card' } satisfies FieldCheck;
const input = { ...card, kind: 'input' } satisfies FieldCheck;

describe('field messages: only the spec catalogue (product-spec §5, §8)', () => {
  it.each<[string, FieldCheck, string]>([
    ['empty required card field', { ...card, isEmpty: true }, 'Fill in the field'],
    ['empty optional card field', { ...card, isEmpty: true, required: false }, ''],
    ['invalid card value', { ...card, valid: false }, 'Fill in the field'],
    ['valid card value', card, ''],
    ['rejected Discover card', { ...card, valid: false, rejectedNetwork: 'discover' }, 'Discover cards are not accepted.'],
    ['empty required input', { ...input, isEmpty: true }, 'This field is required!'],
    ['empty optional input', { ...input, isEmpty: true, required: false }, ''],
    ['input failing a rule with its own text', { ...input, valid: false, ruleError: 'Digits only' }, 'Digits only'],
    ['input failing a rule without text', { ...input, valid: false }, 'Fill in the field'],
    ['input at its maximum length', { ...input, atMaxLength: true }, 'You have reached the maximum length'],
  ])('%s', (_name, check, message) => {
    expect(fieldMessage(check)).toBe(message);
  });

  it('names every network in the same sentence as the Discover message', () => {
    expect(networkNotAcceptedMessage('discover')).toBe('Discover cards are not accepted.');
    for (const network of CARD_NETWORKS) expect(networkNotAcceptedMessage(network)).toMatch(/^[A-Z][\w ]+ cards are not accepted\.$/);
    expect(networkNotAcceptedMessage('amex')).toBe('American Express cards are not accepted.');
  });
});
