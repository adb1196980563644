import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Execution, MerchantChargeRequest } from '@roots/contracts/gateway';
import type { Config } from '../../config/env';
import type { Db } from '../../db/database';
import type { Tx } from '../../db/executor';
import type { ChargeKind } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { GatewayCallError, type GatewayClient } from '../gateway/gateway-client';
import { chargeKeys } from './charge-keys';
import { crashPoint } from '../../lib/fault-injection';
import type { ChargeRow, ChargesRepository, NewCharge } from './charges.repository';

/** Pending attempts younger than this belong to a request or a scheduler pass still running. */
export const RECOVER_AFTER_MS = 30_000;

/** What the gateway is asked to do for an attempt; sent with the attempt's idempotency key. */
export type GatewayInstruction =
  { action: 'charge'; request: MerchantChargeRequest } | { action: 'refund'; executionId: string; reason: string };

/** How a caller moves one attempt: the gateway instruction, and what a success changes. */
export type ChargeEffects = {
  instruction: GatewayInstruction;
  /**
   * Runs in the transaction that settles the attempt as succeeded, once per attempt whatever the
   * number of processes racing on it (the settle is a conditional update).
   */
  onSucceeded(tx: Tx, charge: ChargeRow): Promise<void>;
};

/**
 * `unknown`: the gateway did not answer (network, timeout, 5xx, a concurrent call with the same
 * key): the attempt stays pending, and re-running it sends the same key (the gateway replays).
 */
export type ChargeOutcome =
  | { status: 'succeeded'; charge: ChargeRow }
  | { status: 'failed'; charge: ChargeRow }
  | { status: 'unknown'; charge: ChargeRow; error: unknown };

/** Rebuilds the effects of a pending attempt from its ledger row alone (after a crash). */
export type ChargeRecovery = (charge: ChargeRow) => Promise<ChargeEffects | undefined>;

/** A new attempt: everything but the bookkeeping columns (`executionId`: refunds name the execution refunded). */
export type NewAttempt = Omit<NewCharge, 'id' | 'status' | 'createdAt' | 'updatedAt' | 'declineCode'>;

export type ChargesDependencies = {
  db: Db;
  repository: ChargesRepository;
  gateway: GatewayClient;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
};

const CRASH_AFTER_SEND: Partial<Record<ChargeKind, NonNullable<Config['FAULT_INJECTION']>>> = {
  renewal: 'renewal-after-charge',
  'add-on': 'add-on-after-charge',
  refund: 'refund-after-charge',
};

/**
 * The one money path (ADR 105). Every money-moving caller (renewals, add-ons, refunds) goes
 * through {@link ChargesService.run}: write the attempt, send it with its idempotency key, settle
 * it and apply its effects in one transaction. An attempt whose outcome is unknown stays pending;
 * {@link ChargesService.recover} finishes it from its row with the same key.
 *
 * @example
 * const outcome = await charges.run(
 *   { kind: 'add-on', subscriptionId, parentSubscriptionId, planId, period: 0, attempt: 0, idempotencyKey, amountMinor, currency: 'USD' },
 *   { instruction: { action: 'charge', request }, onSucceeded: (tx, charge) => createAddOn(tx, charge) },
 * );
 */
export class ChargesService {
  private readonly recoveries = new Map<ChargeKind, ChargeRecovery>();

  constructor(private readonly deps: ChargesDependencies) {}

  /** Registers how pending attempts of `kind` are finished by {@link recover}. */
  recoverWith(kind: ChargeKind, recovery: ChargeRecovery): void {
    this.recoveries.set(kind, recovery);
  }

  /** The ledger row of an attempt (inserted once per idempotency key, read back either way). */
  open(attempt: NewAttempt, db: Db | Tx = this.deps.db): Promise<ChargeRow> {
    const now = this.deps.clock.now();
    return this.deps.repository.open(db, { ...attempt, id: randomUUID(), status: 'pending', createdAt: now, updatedAt: now });
  }

  /** Records a payment the shopper made at the gateway and the server verified (kind `first`). */
  async record(tx: Tx, attempt: NewAttempt, execution: Execution): Promise<ChargeRow> {
    const now = this.deps.clock.now();
    return this.deps.repository.open(tx, {
      ...attempt,
      id: randomUUID(),
      status: 'succeeded',
      executionId: execution.id,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** Attempts (refunds excluded) of one period, latest first. */
  attempts(subscriptionId: string, period: number): Promise<ChargeRow[]> {
    return this.deps.repository.attempts(this.deps.db, subscriptionId, period);
  }

  /** Charges (refunds excluded) of a subscription, newest first. */
  /** The charges (refunds excluded) of each subscription, newest first: one query for all. */
  async chargesByPurchase(subscriptionIds: readonly string[]): Promise<Map<string, ChargeRow[]>> {
    const byId = new Map<string, ChargeRow[]>(subscriptionIds.map((id) => [id, []]));
    for (const charge of await this.deps.repository.chargesOfMany(this.deps.db, subscriptionIds))
      if (charge.subscriptionId) byId.get(charge.subscriptionId)?.push(charge);
    return byId;
  }

  chargesOf(subscriptionId: string): Promise<ChargeRow[]> {
    return this.deps.repository.chargesOf(this.deps.db, subscriptionId);
  }

  /** One ledger row by id (any kind). */
  byId(id: string, db: Db | Tx = this.deps.db): Promise<ChargeRow | undefined> {
    return this.deps.repository.byId(db, id);
  }

  /** The refund of a charge, if one was attempted: the first, whoever asked (key `refund:`). */
  refundOf(chargeId: string): Promise<ChargeRow | undefined> {
    return this.deps.repository.byKey(this.deps.db, chargeKeys.refund(chargeId));
  }

  /** The money-back refund of what a partial refund of a charge left, if one was attempted (key `refund-rest:`). */
  restRefundOf(chargeId: string): Promise<ChargeRow | undefined> {
    return this.deps.repository.byKey(this.deps.db, chargeKeys.refundRest(chargeId));
  }

  /** Records on a charge how much of it a settled refund gave back (inside the refund's transaction). */
  markRefunded(tx: Tx, chargeId: string, amountMinor: number): Promise<void> {
    return this.deps.repository.markRefunded(tx, chargeId, amountMinor, this.deps.clock.now());
  }

  /**
   * Create attempt → send → settle. `attempt` is a new attempt or a ledger row (then nothing is
   * inserted); a settled row answers its outcome without calling the gateway.
   */
  async run(attempt: NewAttempt | ChargeRow, effects: ChargeEffects): Promise<ChargeOutcome> {
    const { repository, db, clock, config } = this.deps;
    const charge = 'status' in attempt ? attempt : await this.open(attempt);
    if (charge.status !== 'pending') return { status: charge.status, charge };

    let answer: { succeeded: boolean; executionId: string | null; gatewayRefundId: string | null; declineCode: string | null };
    try {
      answer = await this.send(charge, effects.instruction);
    } catch (error) {
      if (error instanceof GatewayCallError && !error.retryable) {
        // The gateway refused for good (instrument gone, refund not allowed): nothing a retry fixes.
        const settled = await repository.settle(db, charge.id, {
          status: 'failed',
          executionId: null,
          declineCode: error.code,
          now: clock.now(),
        });
        return settled ? { status: 'failed', charge: settled } : this.outcomeOf(charge);
      }
      this.deps.log.warn({ chargeId: charge.id, kind: charge.kind, err: error }, 'charge outcome unknown; left pending');
      return { status: 'unknown', charge, error };
    }
    const point = CRASH_AFTER_SEND[charge.kind];
    if (point) crashPoint(config, point);

    if (!answer.succeeded) {
      const settled = await repository.settle(db, charge.id, {
        status: 'failed',
        executionId: answer.executionId,
        declineCode: answer.declineCode,
        now: clock.now(),
      });
      return settled ? { status: 'failed', charge: settled } : this.outcomeOf(charge);
    }
    const settled = await db.transaction(async (tx) => {
      const row = await repository.settle(tx, charge.id, {
        status: 'succeeded',
        executionId: answer.executionId,
        gatewayRefundId: answer.gatewayRefundId,
        declineCode: null,
        now: clock.now(),
      });
      if (row) await effects.onSucceeded(tx, row);
      return row;
    });
    return settled ? { status: 'succeeded', charge: settled } : this.outcomeOf(charge);
  }

  /**
   * Finishes pending attempts older than RECOVER_AFTER_MS of every kind with a registered recovery:
   * re-sent with their own key (the gateway replays the first answer, nothing is charged twice).
   * Returns how many it settled.
   */
  async recover(limit = 50): Promise<number> {
    const { repository, db, clock } = this.deps;
    const before = new Date(clock.now().getTime() - RECOVER_AFTER_MS);
    let settled = 0;
    for (const charge of await repository.stalePending(db, [...this.recoveries.keys()], before, limit)) {
      const effects = await this.recoveries.get(charge.kind)?.(charge);
      if (!effects) continue;
      if ((await this.run(charge, effects)).status !== 'unknown') settled += 1;
    }
    return settled;
  }

  private async send(charge: ChargeRow, instruction: GatewayInstruction) {
    const { gateway } = this.deps;
    if (instruction.action === 'refund') {
      // The refund row's own amount (full or partial): a recovery rebuilds the same request from the row.
      const answer = await gateway.refund(
        instruction.executionId,
        { amount: { value: charge.amountMinor, currency: charge.currency }, reason: instruction.reason },
        charge.idempotencyKey,
      );
      return { succeeded: true, executionId: instruction.executionId, gatewayRefundId: answer.refund.id, declineCode: null };
    }
    const execution = await gateway.charge(instruction.request, charge.idempotencyKey);
    const succeeded = execution.status === 'authorizeSuccessful';
    return {
      succeeded,
      executionId: execution.id,
      gatewayRefundId: null,
      declineCode: succeeded ? null : (execution.finalState?.errors[0]?.reason.code ?? null),
    };
  }

  /** The outcome another process recorded for an attempt this one could not settle. */
  private async outcomeOf(charge: ChargeRow): Promise<ChargeOutcome> {
    const row = (await this.deps.repository.byId(this.deps.db, charge.id)) ?? charge;
    if (row.status === 'pending') return { status: 'unknown', charge: row, error: new Error('charge settled by nobody') };
    return { status: row.status, charge: row };
  }
}
