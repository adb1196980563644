import { DISPUTE_STATUSES, disputeStatusRank, type DisputeStatus } from '@roots/contracts/gateway';
import { describe, expect, it } from 'vitest';
import { disputeTransition, isChargedBack, isDisputeOpen, refundRefusal, type DisputeEvent } from './dispute-state';

const EVENTS: DisputeEvent[] = ['submitEvidence', 'accept', 'win', 'lose', 'expire'];

/** Every allowed move; everything else throws INVALID_STATE. */
const ALLOWED: Record<DisputeStatus, Partial<Record<DisputeEvent, DisputeStatus>>> = {
  needs_response: { submitEvidence: 'under_review', accept: 'accepted', win: 'won', lose: 'lost', expire: 'lost' },
  under_review: { win: 'won', lose: 'lost' },
  won: { lose: 'lost' },
  lost: {},
  accepted: {},
};

describe('the dispute state machine', () => {
  for (const status of DISPUTE_STATUSES)
    for (const event of EVENTS) {
      const next = ALLOWED[status][event];
      it(`${status} --${event}--> ${next ?? 'refused'}`, () => {
        if (next) {
          expect(disputeTransition(status, event)).toBe(next);
          // Receivers order out-of-order deliveries by rank: every move must go up.
          expect(disputeStatusRank(next)).toBeGreaterThan(disputeStatusRank(status));
        } else expect(() => disputeTransition(status, event)).toThrowError(expect.objectContaining({ code: 'INVALID_STATE' }));
      });
    }

  it('is open until a decision, and charged back when lost or accepted', () => {
    expect(DISPUTE_STATUSES.filter(isDisputeOpen)).toEqual(['needs_response', 'under_review']);
    expect(DISPUTE_STATUSES.filter(isChargedBack)).toEqual(['lost', 'accepted']);
  });

  it('refuses a refund while the dispute is open or after a chargeback, never without a dispute or after a win', () => {
    expect(refundRefusal(undefined)).toBeUndefined();
    expect(refundRefusal('won')).toBeUndefined();
    expect(refundRefusal('needs_response')).toMatch(/disputed/);
    expect(refundRefusal('under_review')).toMatch(/disputed/);
    expect(refundRefusal('lost')).toMatch(/charged back/);
    expect(refundRefusal('accepted')).toMatch(/charged back/);
  });
});
