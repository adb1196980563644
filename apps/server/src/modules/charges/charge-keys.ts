import { createHash } from 'node:crypto';

/**
 * Every idempotency key and order reference of a money movement, built and read here only (issue
 * 23). A key is written on the charge's ledger row before the gateway is called, so a retry, a
 * restart or a second instance sends the same key and the gateway replays its first answer
 * (ADR 031, ADR 105). The forms are stored in the ledger and at the gateway: never change one.
 */
export const chargeKeys = {
  /** The first charge of a purchase: the execution the shopper paid. */
  first: (executionId: string) => `execution:${executionId}`,
  /** Attempt `attempt` of renewal period `period` (issue 5: `sub:{id}:period:{n}`, retries `:retry:{k}`). */
  renewal: (subscriptionId: string, period: number, attempt: number) => withAttempt(`sub:${subscriptionId}:period:${period}`, attempt),
  /** Attempt `attempt` of the one-click add-on `planId` on the parent purchase. */
  addOn: (parentId: string, planId: string, attempt: number) => withAttempt(addOnBase(parentId, planId), attempt),
  /** The refund of one charge: a charge is refunded at most once, whoever asks. */
  refund: (chargeId: string) => `refund:${chargeId}`,
  /** The money-back refund of what an operator's partial refund of a charge left (issue 32). */
  refundRest: (chargeId: string) => `refund-rest:${chargeId}`,
  /** The payment sweep's refund of a paid execution no purchase claimed (ADR 127). */
  unmatchedRefund: (executionId: string) => `unmatched:${executionId}`,
} as const;

/** What the gateway stores as the order of a payment (its listing and reconciliation read it back). */
export const orderReferences = {
  /** A shopper's first payment names the plan it buys (the payment sweep matches on it). */
  purchase: (planId: string) => planId,
  renewal: (subscriptionId: string, period: number) => `sub:${subscriptionId}:period:${period}`,
  /** An add-on's order is its charge key, within the gateway's 200 characters. */
  addOn: (chargeKey: string) => chargeKey.slice(0, 200),
} as const;

/** The id of the subscription an add-on's success creates: the same for every attempt and instance. */
export function addOnSubscriptionId(parentId: string, planId: string): string {
  return uuidFor(addOnBase(parentId, planId));
}

export type ParsedChargeKey =
  | { kind: 'first'; executionId: string }
  | { kind: 'renewal'; subscriptionId: string; period: number; attempt: number }
  | { kind: 'add-on'; parentId: string; planId: string; attempt: number }
  | { kind: 'refund'; chargeId: string }
  | { kind: 'refund-rest'; chargeId: string }
  | { kind: 'unmatched-refund'; executionId: string };

/** What a key names; undefined for a string no builder above makes. */
export function parseChargeKey(key: string): ParsedChargeKey | undefined {
  const [base, attemptText] = key.split(':retry:') as [string, string | undefined];
  const attempt = attemptText === undefined ? 0 : Number(attemptText);
  if (!Number.isSafeInteger(attempt) || attempt < 0 || (attemptText !== undefined && attempt === 0)) return undefined;
  const renewal = /^sub:([0-9a-f-]{36}):period:(\d+)$/.exec(base);
  if (renewal?.[1] && renewal[2]) return { kind: 'renewal', subscriptionId: renewal[1], period: Number(renewal[2]), attempt };
  const addOn = /^addon:([0-9a-f-]{36}):(.+)$/.exec(base);
  if (addOn?.[1] && addOn[2]) return { kind: 'add-on', parentId: addOn[1], planId: addOn[2], attempt };
  if (attemptText !== undefined) return undefined;
  const [prefix, rest] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
  if (!rest || key.indexOf(':') < 0) return undefined;
  switch (prefix) {
    case 'execution':
      return { kind: 'first', executionId: rest };
    case 'refund':
      return { kind: 'refund', chargeId: rest };
    case 'refund-rest':
      return { kind: 'refund-rest', chargeId: rest };
    case 'unmatched':
      return { kind: 'unmatched-refund', executionId: rest };
    default:
      return undefined;
  }
}

const addOnBase = (parentId: string, planId: string) => `addon:${parentId}:${planId}`;
const withAttempt = (base: string, attempt: number) => (attempt === 0 ? base : `${base}:retry:${attempt}`);

/** A stable uuid for a key (the form stored since add-ons began; never change it). */
function uuidFor(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
