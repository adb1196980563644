import { API_MESSAGES } from '@roots/contracts';
import { CHARGED_BACK_DISPUTE_STATUSES, OPEN_DISPUTE_STATUSES, type DisputeStatus } from '@roots/contracts/gateway';
import { inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import { disputes } from '../../db/schema';
import { AppError } from '../../errors';
import type { GatewayClient } from '../gateway/gateway-client';
import type { DisputeRecords } from './dispute-records';

const isOpen = (status: string) => (OPEN_DISPUTE_STATUSES as readonly string[]).includes(status);
const isChargedBack = (status: string) => (CHARGED_BACK_DISPUTE_STATUSES as readonly string[]).includes(status);

/**
 * Why a payment may not be refunded because of a dispute (ADR 182), or undefined: an open dispute
 * holds the money until the bank decides; a lost or accepted one already gave it back.
 */
export function disputeRefusal(statuses: readonly (DisputeStatus | string)[]): string | undefined {
  if (statuses.some(isOpen)) return API_MESSAGES.chargeDisputed;
  if (statuses.some(isChargedBack)) return API_MESSAGES.chargeChargedBack;
  return undefined;
}

/**
 * Refuses a refund of a disputed payment before anything is written or sent (ADR 182), for the
 * customer's money-back and the operator's refund alike. It reads the disputes we recorded and,
 * when none is recorded for the payment, asks the gateway (its webhook may still be on its way),
 * recording what it learns. The gateway refuses such a refund itself too (CHARGE_DISPUTED), which
 * covers every other path; this check keeps the refund out of the ledger and says why.
 */
export class DisputeGuard {
  constructor(private readonly deps: { db: Db; gateway: GatewayClient; records: DisputeRecords; log: FastifyBaseLogger }) {}

  /** @throws AppError CHARGE_DISPUTED (409) when a dispute of one of these executions forbids a refund. */
  async assertRefundable(executionIds: readonly string[]): Promise<void> {
    const refusal = disputeRefusal(await this.statusesOf(executionIds));
    if (refusal) throw new AppError('CHARGE_DISPUTED', refusal);
  }

  private async statusesOf(executionIds: readonly string[]): Promise<string[]> {
    if (executionIds.length === 0) return [];
    const { db, gateway, records, log } = this.deps;
    const recorded = await db
      .select({ executionId: disputes.executionId, status: disputes.status })
      .from(disputes)
      .where(inArray(disputes.executionId, [...executionIds]));
    const statuses = recorded.map((row) => row.status);
    for (const executionId of executionIds) {
      if (recorded.some((row) => row.executionId === executionId)) continue;
      try {
        const { dispute } = await gateway.getExecution(executionId);
        if (!dispute) continue;
        await records.record(dispute);
        statuses.push(dispute.status);
      } catch (error) {
        // The gateway refuses a disputed refund itself: an unanswered read does not stop the refund here.
        log.warn({ executionId, err: error }, 'dispute check: the gateway did not answer');
      }
    }
    return statuses;
  }
}
