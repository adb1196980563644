import { EXECUTION_STATUSES, type ExecutionStatus } from '@roots/contracts/gateway';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors';
import { isFinalExecutionStatus as isFinal } from '@roots/contracts/gateway';
import { transition, type ExecutionEvent } from './execution-state';
import { cardScenario, TEST_CARDS } from '../test-cards/test-cards';

const EVENTS: ExecutionEvent[] = ['authorize', 'requireConfirm', 'confirm', 'pend', 'succeed', 'fail'];

/** Every allowed edge; anything else must throw INVALID_STATE. */
const ALLOWED: Record<string, ExecutionStatus> = {
  'created/authorize': 'authorizeRequested',
  'authorizeFailed/authorize': 'authorizeRequested',
  'authorizeRequested/requireConfirm': 'confirmRequested',
  'authorizeRequested/pend': 'authorizePending',
  'authorizeRequested/succeed': 'authorizeSuccessful',
  'authorizeRequested/fail': 'authorizeFailed',
  'confirmRequested/confirm': 'authorizeRequested',
  'confirmRequested/fail': 'authorizeFailed',
  'authorizePending/succeed': 'authorizeSuccessful',
  'authorizePending/fail': 'authorizeFailed',
};

describe('execution state machine', () => {
  for (const status of EXECUTION_STATUSES) {
    for (const event of EVENTS) {
      const expected = ALLOWED[`${status}/${event}`];
      it(`${status} --${event}--> ${expected ?? 'INVALID_STATE'}`, () => {
        if (expected) expect(transition(status, event)).toBe(expected);
        else expect(() => transition(status, event)).toThrow(GatewayError);
      });
    }
  }

  it('names the final statuses of checkout-spec §4', () => {
    expect(EXECUTION_STATUSES.filter(isFinal)).toEqual(['authorizePending', 'authorizeSuccessful', 'authorizeFailed']);
  });
});

describe('test card scenarios', () => {
  it('has unique numbers', () => {
    expect(new Set(TEST_CARDS.map((card) => card.number)).size).toBe(TEST_CARDS.length);
  });

  it('lets special cards win over triggers, and triggers win over plain success cards', () => {
    expect(cardScenario({ number: '4000000000000002', holderName: 'CHALLENGE', amountValue: 100 })).toEqual({
      kind: 'decline',
      code: 'card_declined',
    });
    expect(cardScenario({ number: '4242424242424242', holderName: ' slow ', amountValue: 100 })).toEqual({ kind: 'slow' });
    expect(cardScenario({ number: '4242424242424242', amountValue: 300_050 })).toEqual({ kind: 'decline', code: 'processing_error' });
    expect(cardScenario({ number: '4111111111111111', amountValue: 100 })).toEqual({ kind: 'success' });
  });

  it('gives a card its own merchant-initiated behaviour only where it has one', () => {
    const dry = { number: '4000000000009953', amountValue: 2499 };
    expect(cardScenario(dry)).toEqual({ kind: 'success' });
    expect(cardScenario({ ...dry, merchantInitiated: true })).toEqual({ kind: 'decline', code: 'insufficient_funds' });
    expect(cardScenario({ number: '4242424242424242', amountValue: 2499, merchantInitiated: true })).toEqual({ kind: 'success' });
    expect(cardScenario({ number: '4000000000000002', amountValue: 2499, merchantInitiated: true })).toEqual({
      kind: 'decline',
      code: 'card_declined',
    });
  });

  it('disputes payments with the dispute card, with the shopper present or not', () => {
    const disputed = { kind: 'dispute', reason: 'fraudulent' };
    expect(cardScenario({ number: '4000000000000259', amountValue: 2499 })).toEqual(disputed);
    expect(cardScenario({ number: '4000000000000259', amountValue: 2499, merchantInitiated: true })).toEqual(disputed);
  });
});
