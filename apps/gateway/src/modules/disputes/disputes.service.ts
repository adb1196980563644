import {
  SANDBOX_DISPUTE_EVIDENCE_WORDS,
  type Dispute,
  type DisputeDecisionRequest,
  type DisputeEvidenceRequest,
  type DisputeStatus,
  type Execution,
} from '@roots/contracts/gateway';
import type { DisputeEvidence } from '../../db/schema';
import { GatewayError } from '../../errors';
import { disputeView } from '../executions/execution-view';
import type { DisputeRow } from '../executions/executions.repository';
import type { WebhooksService } from '../webhooks/webhooks.service';
import { disputeTransition, isDisputeMoveAllowed, type DisputeEvent } from '../dispute-state/dispute-state';
import type { DisputePatch, DisputesRepository } from './disputes.repository';

/** What the disputes module needs of executions: their wire view, and their per-execution lock. */
export type DisputedExecutions = {
  view(executionId: string): Promise<Execution>;
  locked<T>(executionId: string, work: () => Promise<T>): Promise<T>;
};

/**
 * A dispute's life after it opens (ADR 181): the merchant's evidence or acceptance, the bank's
 * decision, and the due date passing unanswered. Every move goes through {@link disputeTransition}
 * under the execution's lock (a refund of the same execution waits), and each is announced by a
 * signed `execution.disputeUpdated`. A processor adapter (Adyen's notifications) calls {@link apply}.
 */
export class DisputesService {
  constructor(
    private readonly disputes: DisputesRepository,
    private readonly executions: DisputedExecutions,
    private readonly webhooks: WebhooksService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The merchant's read; a dispute left unanswered past its due date is lost first. */
  async get(id: string): Promise<Dispute> {
    const row = await this.load(id);
    return disputeView(await this.executions.locked(row.executionId, async () => this.expireIfDue(await this.load(id))));
  }

  /**
   * The merchant's evidence: allowed while `needs_response` and before the due date; moves the
   * dispute to `under_review`. In the sandbox the words of {@link SANDBOX_DISPUTE_EVIDENCE_WORDS}
   * have the bank decide at once.
   */
  async submitEvidence(id: string, request: DisputeEvidenceRequest): Promise<Dispute> {
    const evidence: DisputeEvidence = { text: request.text.trim(), timeline: request.timeline ?? [] };
    const row = await this.act(id, 'submitEvidence', { evidence });
    const decided = evidence.text.includes(SANDBOX_DISPUTE_EVIDENCE_WORDS.won)
      ? 'win'
      : evidence.text.includes(SANDBOX_DISPUTE_EVIDENCE_WORDS.lost)
        ? 'lose'
        : undefined;
    return disputeView(decided ? await this.apply(row.id, decided) : row);
  }

  /** The merchant gives the money up: the dispute ends `accepted` (a chargeback). */
  async accept(id: string): Promise<Dispute> {
    return disputeView(await this.act(id, 'accept', {}));
  }

  /** The sandbox bank's decision (Adyen's CHARGEBACK_REVERSED / SECOND_CHARGEBACK). */
  async decide(id: string, request: DisputeDecisionRequest): Promise<Dispute> {
    return disputeView(await this.apply(id, request.outcome === 'won' ? 'win' : 'lose'));
  }

  /** Loses every dispute left unanswered past its due date; returns how many. */
  async expireDue(): Promise<number> {
    const due = await this.disputes.unansweredPastDue(this.now());
    for (const row of due) await this.executions.locked(row.executionId, async () => this.expireIfDue(await this.load(row.id)));
    return due.length;
  }

  /**
   * Applies one event to a dispute under its execution's lock, with its webhook: the entry point
   * of the sandbox's and a processor's notifications. @throws GatewayError INVALID_STATE for a move
   * the state machine refuses.
   */
  async apply(id: string, event: DisputeEvent, patch: DisputePatch = {}): Promise<DisputeRow> {
    const row = await this.load(id);
    return this.executions.locked(row.executionId, async () => this.move(await this.load(id), event, patch));
  }

  /**
   * The processor's word on a dispute (Adyen's CHARGEBACK_REVERSED / SECOND_CHARGEBACK), applied by
   * a caller that already holds the execution's lock (the processor-event path does): the same state
   * machine and `execution.disputeUpdated` webhook as every other move. A decision the state machine
   * has no move for (the dispute already ended that way) changes nothing.
   */
  async decideHeld(id: string, decision: 'won' | 'lost'): Promise<DisputeRow> {
    const row = await this.load(id);
    const event: DisputeEvent = decision === 'won' ? 'win' : 'lose';
    if (!isDisputeMoveAllowed(row.status as DisputeStatus, event)) return row;
    return this.move(row, event, {});
  }

  /** A merchant's own move: only before the due date (past it, the dispute is lost first). */
  private async act(id: string, event: 'submitEvidence' | 'accept', patch: DisputePatch): Promise<DisputeRow> {
    const row = await this.load(id);
    return this.executions.locked(row.executionId, async () => {
      const current = await this.expireIfDue(await this.load(id));
      if (current.status === 'lost' && current.evidenceSubmittedAt === null && current.evidenceDueBy <= this.now())
        throw new GatewayError('INVALID_STATE', `The evidence was due by ${current.evidenceDueBy.toISOString()}: the dispute is lost`);
      return this.move(current, event, patch);
    });
  }

  private async expireIfDue(row: DisputeRow): Promise<DisputeRow> {
    if (row.status !== 'needs_response' || row.evidenceDueBy > this.now()) return row;
    return this.move(row, 'expire', {});
  }

  private async move(row: DisputeRow, event: DisputeEvent, patch: DisputePatch): Promise<DisputeRow> {
    const status: DisputeStatus = disputeTransition(row.status as DisputeStatus, event);
    const now = this.now();
    const closes = status === 'won' || status === 'lost' || status === 'accepted';
    const moved = await this.disputes.move(
      row.id,
      row.status,
      { ...patch, status, ...(event === 'submitEvidence' ? { evidenceSubmittedAt: now } : {}), ...(closes ? { closedAt: now } : {}) },
      now,
    );
    if (!moved) throw new GatewayError('INVALID_STATE', `The dispute changed meanwhile (now ${(await this.load(row.id)).status})`);
    if (this.webhooks.enabled)
      await this.webhooks.emit('execution.disputeUpdated', await this.executions.view(moved.executionId), { dispute: disputeView(moved) });
    return moved;
  }

  private async load(id: string): Promise<DisputeRow> {
    const row = await this.disputes.find(id);
    if (!row) throw new GatewayError('NOT_FOUND', 'Dispute not found');
    return row;
  }
}
