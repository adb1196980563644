import { createHmac, randomBytes } from 'node:crypto';
import {
  DECLINE_CODES,
  DISPUTE_EVIDENCE_DAYS,
  PIX_TIMEOUT_MS,
  type AuthorizeRequest,
  type ConfirmRequest,
  type DeclineCode,
  type DisputeReason,
  type DisputeStatus,
  type Execution,
  type ExecutionList,
  type ExecutionStatus,
  type FinalState,
  type MerchantChargeRequest,
  type MerchantRefundRequest,
  type PaymentItem,
  type Refund,
} from '@roots/contracts/gateway';
import type { FastifyBaseLogger } from 'fastify';
import type { ChallengeState, PlannedOutcome, ProcessorState } from '../../db/schema';
import { GatewayError } from '../../errors';
import { newId } from '../../lib/ids';
import { KeyedMutex } from '../../lib/keyed-mutex';
import type { PageTokens } from '../page-token/page-token';
import {
  ProcessorUnavailableError,
  type CardPayment,
  type PaymentContext,
  type PaymentProcessor,
  type ProcessorEvent,
  type ProcessorResult,
  type StoredCharge,
} from '../processors/processor';
import { applePayNetworkToken, type ApplePayNetworkToken } from '../wallet-tokens/apple-pay-token';
import { verifyGooglePayToken, type GooglePaySandboxCard } from '../wallet-tokens/google-pay-token';
import { GOOGLE_PAY_GATEWAY_MERCHANT_ID } from '../sessions/payment-methods';
import type { ClientPrincipal } from '../sessions/bearer-token';
import type { SessionsRepository } from '../sessions/sessions.repository';
import type { VaultService } from '../vault/vault.service';
import type { InstrumentRow } from '../vault/vault.repository';
import type { WebhooksService } from '../webhooks/webhooks.service';
import { refundRefusal } from '../dispute-state/dispute-state';
import { disputeView, executionView, refundView } from './execution-view';
import type { ExecutionPatch, ExecutionRow, ExecutionsRepository } from './executions.repository';
import { transition, type ExecutionEvent } from './execution-state';
import { decodeListCursor, encodeListCursor } from './list-cursor';
import { DECLINE_MESSAGES, triggerScenario, type CardScenario } from '../test-cards/test-cards';

/** Wrong one-time codes allowed on a 3-D Secure challenge before it fails. */
export const CHALLENGE_ATTEMPTS = 3;

export type ExecutionsContext = {
  publicUrl: () => string;
  slowAuthPolls: number;
  /** How long a 3-D Secure challenge waits for the shopper before the execution expires. */
  challengeTtlMs: number;
  /** Secret for one-time 3-D Secure codes. */
  otpSecret: string;
  /** Secret the Google-type wallet sandbox signs its payment tokens with. */
  walletSecret: string;
  /** Who decides card payments: the sandbox, or a real processor (ADR 173). */
  processor: PaymentProcessor;
  log: FastifyBaseLogger;
  /** Keyed hash (the vault key) of a merchant idempotency key, kept on a processor charge to find it again. */
  hashKey: (value: string) => string;
};

/** What the shopper's browser said at authorize (3-D Secure browser data for a real processor). */
export type ShopperRequest = { userAgent?: string | undefined; acceptHeader?: string | undefined; ip?: string | undefined };

/** A PayPal order (one-time) or billing agreement (storing) waiting on the buyer's approval. */
export type PayPalApproval = { row: ExecutionRow; kind: 'order' | 'agreement'; approved: boolean };

export type HostedOutcome = 'success' | 'cancel' | 'error' | 'pending';

function failure(code: DeclineCode): FinalState {
  const type = code === 'authentication_failed' ? 'AUTHENTICATION_ERROR' : 'AUTHORIZATION_ERROR';
  return { code: 'authorizeFailed', errors: [{ reason: { result: DECLINE_MESSAGES[code], code, type } }] };
}

function isDeclineCode(value: string | undefined): value is DeclineCode {
  return value !== undefined && (DECLINE_CODES as readonly string[]).includes(value);
}

function tokenText(token: unknown): string {
  return (typeof token === 'string' ? token : JSON.stringify(token ?? '')).toLowerCase();
}

/**
 * Payment executions: authorize, poll, confirm, 3-D Secure and hosted-page completion, merchant
 * charges and refunds. State moves only through {@link transition}; per-execution work is serialised.
 */
export class ExecutionsService {
  private readonly mutex = new KeyedMutex();

  constructor(
    private readonly executions: ExecutionsRepository,
    private readonly sessions: SessionsRepository,
    private readonly vault: VaultService,
    private readonly webhooks: WebhooksService,
    private readonly pageTokens: PageTokens,
    private readonly context: ExecutionsContext,
  ) {}

  /**
   * Where a processor's decision on a dispute goes (the disputes module's state machine, ADR 181),
   * set once both services exist; it runs under the execution's lock this service already holds.
   */
  private disputeDecisions: ((disputeId: string, decision: 'won' | 'lost') => Promise<unknown>) | undefined;

  decideDisputesWith(decide: (disputeId: string, decision: 'won' | 'lost') => Promise<unknown>): void {
    this.disputeDecisions = decide;
  }

  // ----- reads ---------------------------------------------------------------------------

  async view(row: ExecutionRow): Promise<Execution> {
    const instrument = row.instrumentId ? await this.vault.findInstrument(row.instrumentId) : undefined;
    const refunds = row.amountRefunded > 0 ? await this.executions.refundsOf(row.id) : [];
    // Only a successful payment can be disputed.
    const dispute = row.status === 'authorizeSuccessful' ? await this.executions.disputeOf(row.id) : undefined;
    return executionView(row, { publicUrl: this.context.publicUrl(), pageTokens: this.pageTokens, instrument, refunds, dispute });
  }

  /** The merchant's view of one execution, as it is now (no side effects). */
  async viewById(id: string): Promise<Execution> {
    return this.view(await this.load(id));
  }

  /** Runs `work` under the execution's lock: its state changes, refunds and dispute moves never interleave. */
  locked<T>(id: string, work: () => Promise<T>): Promise<T> {
    return this.mutex.run(id, work);
  }

  private async load(id: string): Promise<ExecutionRow> {
    const row = await this.executions.find(id);
    if (!row) throw new GatewayError('NOT_FOUND', 'Execution not found');
    return row;
  }

  private async loadForClient(principal: ClientPrincipal, id: string): Promise<ExecutionRow> {
    const row = await this.load(id);
    if (row.sessionId !== principal.sessionId) throw new GatewayError('FORBIDDEN', 'This execution belongs to another session');
    return row;
  }

  /** The SDK's poll: also advances a slow authorization by one poll and expires stale pix payments. */
  async poll(principal: ClientPrincipal, id: string): Promise<Execution> {
    return this.mutex.run(id, async () => {
      let row = await this.settleUnknownIfAny(await this.loadForClient(principal, id));
      if (row.status === 'authorizeRequested' && row.pollsRemaining > 0) {
        row = await this.executions.update(id, { pollsRemaining: row.pollsRemaining - 1 });
        if (row.pollsRemaining === 0) row = await this.settle(row, row.plannedOutcome?.declineCode);
      }
      row = await this.expireIfDue(row);
      return this.view(row);
    });
  }

  /** The merchant's verification read (no side effects beyond expiring a stale pix payment). */
  async getForMerchant(id: string): Promise<Execution> {
    return this.mutex.run(id, async () => this.view(await this.expireIfDue(await this.settleUnknownIfAny(await this.load(id)))));
  }

  /**
   * The merchant's listing of executions changed since a time (`GET /merchant/v1/executions`),
   * oldest change first. The cursor is the last item's (change time, id), base64url-encoded.
   */
  async listForMerchant(query: { since?: string | undefined; cursor?: string | undefined; limit: number }): Promise<ExecutionList> {
    const after = query.cursor === undefined ? undefined : decodeListCursor(query.cursor);
    // The listing tells what is over: anything past its deadline is expired first, and payments
    // whose outcome a processor did not tell are read again (the payment sweep sees them settle).
    await this.expireDue();
    await this.settleUnknown();
    const rows = await this.executions.listChanged({
      since: query.since === undefined ? undefined : new Date(query.since),
      after,
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map((row) => ({
        id: row.id,
        status: row.status as ExecutionStatus,
        amount: { value: row.amountValue, currency: row.currency },
        amountRefunded: row.amountRefunded,
        holderReference: row.holderReference,
        ...(row.orderReference ? { orderReference: row.orderReference } : {}),
        merchantInitiated: row.merchantInitiated,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      })),
      nextCursor: rows.length > query.limit && last ? encodeListCursor(last.updatedAt, last.id) : null,
    };
  }

  // ----- authorize -------------------------------------------------------------------------

  async authorize(principal: ClientPrincipal, id: string, request: AuthorizeRequest, shopper: ShopperRequest = {}): Promise<Execution> {
    await this.loadForClient(principal, id);
    const session = await this.sessions.find(principal.sessionId);
    if (!session) throw new GatewayError('UNAUTHORIZED', 'Session not found');
    const [item] = request.paymentComposition;
    if (!item) throw new GatewayError('VALIDATION_ERROR', 'paymentComposition: one item is required');
    const amountMatches = (amount: { value: number; currency: string }) =>
      amount.value === session.amountValue && amount.currency === session.currency;
    if (!amountMatches(request.amount) || (item.amount && !amountMatches(item.amount))) {
      throw new GatewayError('AMOUNT_MISMATCH', 'Amount differs from the session amount');
    }
    if (!session.paymentMethods.includes(item.paymentMethodCode)) {
      throw new GatewayError('PAYMENT_METHOD_NOT_ENABLED', `Payment method ${item.paymentMethodCode} is not enabled for this session`);
    }
    // A real processor takes cards only: the wallets, PayPal and hosted methods are the sandbox's stand-ins.
    if (this.processor.name !== 'sandbox' && item.paymentMethodCode !== 'card') {
      throw new GatewayError(
        'PAYMENT_METHOD_NOT_ENABLED',
        `Payment method ${item.paymentMethodCode} is not available with ${this.processor.name}`,
      );
    }
    return this.mutex.run(id, async () => {
      const row = await this.load(id);
      const status = transition(row.status as ExecutionStatus, 'authorize');
      // Everything that can refuse the request is checked before the execution changes.
      const instrument = await this.preflight(item, principal);
      const base: ExecutionPatch = {
        status,
        paymentMethodCode: item.paymentMethodCode,
        integrationType: item.integrationType,
        returnInfo: request.returnInfo ?? null,
        finalState: null,
        challenge: null,
        confirmAction: null,
        plannedOutcome: null,
        pollsRemaining: 0,
        instrumentId: null,
      };
      const requested = await this.executions.update(id, base);
      try {
        return this.view(await this.resolve(requested, item, instrument, shopper));
      } catch (error) {
        // Never leave an execution stuck in authorizeRequested: put back what it was.
        await this.executions.update(id, {
          status: row.status,
          paymentMethodCode: row.paymentMethodCode,
          integrationType: row.integrationType,
          returnInfo: row.returnInfo,
          finalState: row.finalState,
          instrumentId: row.instrumentId,
          pollsRemaining: row.pollsRemaining,
        });
        throw error;
      }
    });
  }

  /** Method-specific checks that must pass before authorize changes anything; returns the card instrument. */
  private async preflight(item: PaymentItem, principal: ClientPrincipal): Promise<InstrumentRow | undefined> {
    switch (item.paymentMethodCode) {
      case 'card':
        if (!item.paymentInstrumentId) throw new GatewayError('VALIDATION_ERROR', 'paymentInstrumentId is required for card payments');
        return this.vault.usableInstrument(item.paymentInstrumentId, principal.holderReference, { merchantInitiated: false });
      case 'applePay':
        if (item.paymentInstrumentData?.paymentToken === undefined) {
          throw new GatewayError('VALIDATION_ERROR', 'paymentInstrumentData.paymentToken is required for applePay');
        }
        // A token to keep must be one a provider can turn into a network token.
        if (item.storeInstrument) this.applePayCard(item.paymentInstrumentData.paymentToken);
        return undefined;
      case 'googlePay':
        // A token given at authorize is checked before anything changes; without one, confirm brings it.
        if (item.paymentInstrumentData?.paymentToken !== undefined) this.googlePayCard(item.paymentInstrumentData.paymentToken);
        return undefined;
      case 'payPal':
        return undefined;
      default:
        if (item.integrationType !== 'hpp') {
          throw new GatewayError('PAYMENT_METHOD_NOT_ENABLED', `${item.paymentMethodCode} is a hosted-page method (integrationType hpp)`);
        }
        return undefined;
    }
  }

  /** Decides what an `authorizeRequested` execution does next, by method. */
  private async resolve(
    row: ExecutionRow,
    item: PaymentItem,
    instrument: InstrumentRow | undefined,
    shopper: ShopperRequest,
  ): Promise<ExecutionRow> {
    switch (item.paymentMethodCode) {
      case 'card':
        if (!instrument) throw new Error('card payment without a checked instrument');
        return this.resolveCard(row, item, instrument, shopper);
      case 'applePay': {
        const token = item.paymentInstrumentData?.paymentToken;
        if (!item.storeInstrument) return this.resolveWallet(row, token);
        // Stored as a provider keeps a wallet payment's network token: renewals and one-click
        // add-ons charge it (merchant-initiated) once this payment succeeds.
        const address = item.paymentInstrumentData?.billingAddress;
        const holderName = [address?.first_name, address?.last_name].filter(Boolean).join(' ') || undefined;
        const instrument = await this.vault.storeNetworkToken(row.holderReference, { ...this.applePayCard(token), holderName });
        return this.resolveWallet(await this.executions.update(row.id, { instrumentId: instrument.id }), token);
      }
      case 'googlePay': {
        const token = item.paymentInstrumentData?.paymentToken;
        if (token === undefined) {
          return this.move(row, 'requireConfirm', {
            confirmAction: { type: 'googlePayPaymentData', parameters: { orderId: newId('ord') } },
          });
        }
        return this.resolveGooglePay(row, this.googlePayCard(token));
      }
      case 'payPal': {
        const parameters: Record<string, string> = { orderId: newId('ord') };
        if (item.storeInstrument) parameters.tokenId = newId('tok');
        return this.move(row, 'requireConfirm', { confirmAction: { type: 'payPalApproval', parameters } });
      }
      default: {
        if (item.integrationType !== 'hpp')
          throw new GatewayError('PAYMENT_METHOD_NOT_ENABLED', `${item.paymentMethodCode} is a hosted-page method (integrationType hpp)`);
        const planned: PlannedOutcome =
          item.paymentMethodCode === 'pix' ? { expiresAt: new Date(Date.now() + PIX_TIMEOUT_MS).toISOString() } : {};
        return this.move(row, 'pend', { plannedOutcome: planned, finalState: { code: 'authorizePending', errors: [] } });
      }
    }
  }

  private async resolveCard(
    row: ExecutionRow,
    item: PaymentItem,
    instrument: InstrumentRow,
    shopper: ShopperRequest,
  ): Promise<ExecutionRow> {
    if (item.storeInstrument && instrument.status === 'transient') await this.vault.setInstrumentStatus(instrument.id, 'created');
    const withInstrument = await this.executions.update(row.id, { instrumentId: instrument.id });
    const input: CardPayment = {
      ...this.paymentContext(withInstrument),
      card: this.vault.decrypt(instrument),
      storeInstrument: item.storeInstrument === true,
      returnUrl: this.challengeReturnUrl(row.id),
      shopper,
    };
    return this.applyResult(withInstrument, await this.processor.authorize(input));
  }

  private get processor(): PaymentProcessor {
    return this.context.processor;
  }

  private paymentContext(row: ExecutionRow): PaymentContext {
    return {
      executionId: row.id,
      holderReference: row.holderReference,
      amount: { value: row.amountValue, currency: row.currency },
      state: row.processor,
    };
  }

  /** Where the issuer sends the shopper back after a redirect challenge (the page token is the capability). */
  private challengeReturnUrl(id: string): string {
    return `${this.context.publicUrl()}/3ds/${encodeURIComponent(id)}/return?t=${this.pageTokens.sign(id)}`;
  }

  /**
   * Applies what the processor answered: its state and stored-card reference first, then the
   * outcome through the state machine (settle, challenge, processing, or unknown: left open).
   */
  private async applyResult(row: ExecutionRow, result: ProcessorResult): Promise<ExecutionRow> {
    const current = result.state ? await this.executions.update(row.id, { processor: result.state }) : row;
    if (result.storedToken && current.instrumentId) await this.vault.setProcessorToken(current.instrumentId, result.storedToken);
    switch (result.kind) {
      case 'authorised': {
        const settled = await this.settle(current, undefined);
        return result.dispute ? this.openDispute(settled, result.dispute) : settled;
      }
      case 'refused':
        return this.settle(current, result.code);
      case 'processing':
        if (result.settleAfterPolls)
          return this.executions.update(current.id, { pollsRemaining: result.settleAfterPolls, plannedOutcome: {} });
        return current;
      case 'unknown':
        return current;
      case 'challenge': {
        // Nobody is there to answer a challenge on a merchant-initiated charge.
        if (current.merchantInitiated) return this.settle(current, result.after ?? 'authentication_failed');
        return this.pendChallenge(current, result.after, result.redirect);
      }
      default: {
        const exhaustive: never = result;
        return exhaustive;
      }
    }
  }

  /** A 3-D Secure challenge: the sandbox's one-time code page, or the issuer's page by redirect. */
  private async pendChallenge(
    row: ExecutionRow,
    after: DeclineCode | undefined,
    redirect?: ChallengeState['redirect'],
  ): Promise<ExecutionRow> {
    // A challenge nobody answers (the window was closed) expires, so the payment ends for sure.
    const expiresAt = new Date(Date.now() + this.context.challengeTtlMs).toISOString();
    const challenge: ChallengeState = {
      nonce: randomBytes(12).toString('base64url'),
      attemptsLeft: CHALLENGE_ATTEMPTS,
      ...(redirect ? { redirect } : {}),
    };
    const planned: PlannedOutcome = after ? { declineCode: after, expiresAt } : { expiresAt };
    const patch: ExecutionPatch = { challenge, plannedOutcome: planned, finalState: { code: 'authorizePending', errors: [] } };
    if (row.status === 'authorizePending') return this.executions.update(row.id, patch);
    return this.move(row, 'pend', patch);
  }

  /** Reads again, once, an execution whose outcome the processor did not tell (timeouts, 5xx). */
  private async settleUnknownIfAny(row: ExecutionRow): Promise<ExecutionRow> {
    if (row.status !== 'authorizeRequested' || !row.processor?.unknown) return row;
    const input = await this.readInput(row);
    if (!input) return row;
    return this.applyResult(row, await this.processor.read(input));
  }

  /** Reads every execution of unknown outcome again (the merchant listing, the sweep's read). */
  async settleUnknown(): Promise<number> {
    if (this.processor.name === 'sandbox') return 0;
    const open = await this.executions.unknownAtProcessor();
    for (const { id } of open) await this.mutex.run(id, async () => this.settleUnknownIfAny(await this.load(id)));
    return open.length;
  }

  /** The same request as the one whose answer was lost, rebuilt from the execution and the vault. */
  private async readInput(row: ExecutionRow): Promise<CardPayment | StoredCharge | undefined> {
    const instrument = row.instrumentId ? await this.vault.findInstrument(row.instrumentId) : undefined;
    if (!instrument) return undefined;
    const context = this.paymentContext(row);
    if (row.merchantInitiated)
      return {
        ...context,
        card: this.vault.decrypt(instrument),
        token: instrument.processorToken,
        reason: row.processor?.reason ?? 'recurring',
        returnUrl: this.challengeReturnUrl(row.id),
      };
    return {
      ...context,
      card: this.vault.decrypt(instrument),
      storeInstrument: row.processor?.storeInstrument === true,
      returnUrl: this.challengeReturnUrl(row.id),
    };
  }

  /** Apple-type tokens are opaque to the sandbox: one containing `decline` is declined. */
  private async resolveWallet(row: ExecutionRow, token: unknown): Promise<ExecutionRow> {
    if (tokenText(token).includes('decline')) return this.settle(row, 'card_declined');
    return this.applyScenario(row, triggerScenario({ amountValue: row.amountValue }) ?? { kind: 'success' });
  }

  /** The network token of an Apple-type token, once its shape checks out. */
  private applePayCard(token: unknown): ApplePayNetworkToken {
    const check = applePayNetworkToken(token);
    if (!check.ok) throw new GatewayError('VALIDATION_ERROR', `paymentToken: ${check.reason}`);
    return check.card;
  }

  /** The sandbox card a Google-type token names, once its signature, merchant and expiry check out. */
  private googlePayCard(token: unknown): GooglePaySandboxCard {
    const check = verifyGooglePayToken(token, { gatewayMerchantId: GOOGLE_PAY_GATEWAY_MERCHANT_ID, secret: this.context.walletSecret });
    if (!check.ok) throw new GatewayError('VALIDATION_ERROR', `paymentToken: ${check.reason}`);
    return check.card;
  }

  /** Google-type payment: the card's scenario (3-D Secure challenge, decline), else the amount triggers. */
  private async resolveGooglePay(row: ExecutionRow, card: GooglePaySandboxCard): Promise<ExecutionRow> {
    switch (card.scenario) {
      case 'decline':
        return this.settle(row, 'card_declined');
      case 'challenge':
        return this.applyScenario(row, { kind: 'challenge' });
      case 'success':
        return this.applyScenario(row, triggerScenario({ amountValue: row.amountValue }) ?? { kind: 'success' });
      default: {
        const exhaustive: never = card.scenario;
        return exhaustive;
      }
    }
  }

  private async applyScenario(row: ExecutionRow, scenario: CardScenario): Promise<ExecutionRow> {
    switch (scenario.kind) {
      case 'success':
      case 'frictionless':
        return this.settle(row, undefined);
      case 'dispute':
        return this.openDispute(await this.settle(row, undefined), scenario.reason);
      case 'decline':
        return this.settle(row, scenario.code);
      case 'slow':
        if (this.context.slowAuthPolls === 0) return this.settle(row, undefined);
        return this.executions.update(row.id, { pollsRemaining: this.context.slowAuthPolls, plannedOutcome: {} });
      case 'challenge':
        return this.pendChallenge(row, scenario.after);
      default: {
        const exhaustive: never = scenario;
        return exhaustive;
      }
    }
  }

  /** Moves to a final success (no decline code) or failure, updates the instrument, emits the webhook. */
  private async settle(row: ExecutionRow, declineCode: string | undefined): Promise<ExecutionRow> {
    const status = transition(row.status as ExecutionStatus, declineCode ? 'fail' : 'succeed');
    const finalState: FinalState = declineCode
      ? failure(isDeclineCode(declineCode) ? declineCode : 'card_declined')
      : { code: 'authorizeSuccessful', errors: [] };
    const settled = await this.executions.update(row.id, { status, finalState, challenge: null, pollsRemaining: 0 });
    if (!declineCode && settled.instrumentId) {
      const instrument = await this.vault.findInstrument(settled.instrumentId);
      if (instrument?.status === 'created') await this.vault.setInstrumentStatus(instrument.id, 'enabled');
    }
    if (this.webhooks.enabled) {
      await this.webhooks.emit(declineCode ? 'execution.authorizeFailed' : 'execution.authorizeSuccessful', await this.view(settled));
    }
    return settled;
  }

  /**
   * The cardholder's bank disputes a successful payment (the dispute test card): a dispute for the
   * whole amount, evidence due in DISPUTE_EVIDENCE_DAYS, and its webhook after the payment's own.
   * A zero-amount verification moved no money, so nothing is disputed.
   */
  private async openDispute(row: ExecutionRow, reason: DisputeReason): Promise<ExecutionRow> {
    if (row.status !== 'authorizeSuccessful' || row.amountValue === 0) return row;
    const openedAt = new Date();
    const dispute = await this.executions.insertDispute({
      id: newId('dp'),
      executionId: row.id,
      amountValue: row.amountValue,
      currency: row.currency,
      reason,
      status: 'needs_response',
      evidenceDueBy: new Date(openedAt.getTime() + DISPUTE_EVIDENCE_DAYS * 24 * 60 * 60 * 1000),
      createdAt: openedAt,
      updatedAt: openedAt,
    });
    if (this.webhooks.enabled) await this.webhooks.emit('execution.disputeOpened', await this.view(row), { dispute: disputeView(dispute) });
    return row;
  }

  private async move(row: ExecutionRow, event: ExecutionEvent, patch: ExecutionPatch): Promise<ExecutionRow> {
    return this.executions.update(row.id, { ...patch, status: transition(row.status as ExecutionStatus, event) });
  }

  /**
   * Expires every pending execution past its deadline (an unanswered 3-D Secure challenge, an
   * unpaid pix): each is settled `payment_expired` under its own lock, with its webhook.
   */
  async expireDue(): Promise<number> {
    const due = await this.executions.pendingExpiredBy(new Date());
    for (const { id } of due) await this.mutex.run(id, async () => this.expireIfDue(await this.load(id)));
    return due.length;
  }

  /** A pending execution past its deadline (pix, or a 3-D Secure challenge) fails as `payment_expired`. */
  private async expireIfDue(row: ExecutionRow): Promise<ExecutionRow> {
    const expiresAt = row.plannedOutcome?.expiresAt;
    if (row.status === 'authorizePending' && expiresAt && Date.parse(expiresAt) <= Date.now()) {
      await this.cancelAtProcessor(row);
      return this.settle(row, 'payment_expired');
    }
    return row;
  }

  /** An abandoned challenge's authorization is cancelled at the processor (best effort: it lapses anyway). */
  private async cancelAtProcessor(row: ExecutionRow): Promise<void> {
    const pspReference = row.processor?.pspReference;
    if (!row.challenge?.redirect || !pspReference) return;
    try {
      await this.processor.cancel({ ...this.paymentContext(row), pspReference });
    } catch (error) {
      this.context.log.warn(
        { executionId: row.id, pspReference, err: { message: (error as Error).message } },
        'cancel at the processor failed',
      );
    }
  }

  // ----- confirm (PayPal approval, Google payment data) -------------------------------------

  async confirm(principal: ClientPrincipal, id: string, request: ConfirmRequest): Promise<Execution> {
    await this.loadForClient(principal, id);
    return this.mutex.run(id, async () => {
      const row = await this.load(id);
      if (row.status !== 'confirmRequested' || !row.confirmAction)
        throw new GatewayError('INVALID_STATE', `Cannot confirm an execution in status ${row.status}`);
      const expected = row.confirmAction.parameters;
      if (request.data.orderId !== undefined && request.data.orderId !== expected.orderId)
        throw new GatewayError('BAD_REQUEST', 'orderId does not match');
      if (request.data.cancelled) return this.view(await this.settle(row, 'payment_canceled'));
      const isGooglePay = row.confirmAction.type === 'googlePayPaymentData';
      if (isGooglePay && request.data.paymentToken === undefined)
        throw new GatewayError('VALIDATION_ERROR', 'data.paymentToken is required');
      // Everything that can refuse is checked before the execution changes.
      const card = isGooglePay ? this.googlePayCard(request.data.paymentToken) : undefined;
      if (!isGooglePay) {
        if (!row.confirmAction.approval) throw new GatewayError('INVALID_STATE', 'The buyer has not approved this PayPal order');
        if (expected.tokenId !== undefined && request.data.tokenId !== expected.tokenId)
          throw new GatewayError('BAD_REQUEST', 'tokenId does not match the billing agreement');
      }
      const requested = await this.executions.update(id, { status: transition('confirmRequested', 'confirm'), confirmAction: null });
      if (card) return this.view(await this.resolveGooglePay(requested, card));
      return this.view(await this.applyScenario(requested, triggerScenario({ amountValue: row.amountValue }) ?? { kind: 'success' }));
    });
  }

  // ----- PayPal sandbox approval page --------------------------------------------------------

  /** The PayPal order or billing agreement named by `token` (an order id or agreement token), while it waits. */
  async findPayPalApproval(token: string): Promise<PayPalApproval | undefined> {
    const row = await this.executions.findByConfirmToken(token);
    if (!row?.confirmAction || row.confirmAction.type !== 'payPalApproval') return undefined;
    const kind = row.confirmAction.parameters.tokenId === token ? 'agreement' : 'order';
    return { row, kind, approved: row.confirmAction.approval !== undefined };
  }

  /** The buyer approves on the sandbox page: the confirm call may now complete the payment. Idempotent. */
  async approvePayPal(token: string): Promise<PayPalApproval | undefined> {
    const found = await this.findPayPalApproval(token);
    if (!found) return undefined;
    return this.mutex.run(found.row.id, async () => {
      const row = await this.load(found.row.id);
      const action = row.confirmAction;
      if (row.status !== 'confirmRequested' || !action || action.type !== 'payPalApproval') return undefined;
      if (action.approval) return { row, kind: found.kind, approved: true };
      const approval = { payerId: newId('payer'), approvedAt: new Date().toISOString() };
      const updated = await this.executions.update(row.id, { confirmAction: { ...action, approval } });
      return { row: updated, kind: found.kind, approved: true };
    });
  }

  // ----- hosted pages -----------------------------------------------------------------------

  /** The one-time code of an execution's 3-D Secure challenge (shown on the sandbox page). */
  challengeCode(row: ExecutionRow): string | undefined {
    if (!row.challenge) return undefined;
    const digest = createHmac('sha256', this.context.otpSecret).update(`otp:${row.id}:${row.challenge.nonce}`).digest();
    return String(digest.readUInt32BE(0) % 1_000_000).padStart(6, '0');
  }

  async findForPage(id: string): Promise<ExecutionRow> {
    return this.mutex.run(id, async () => this.expireIfDue(await this.load(id)));
  }

  /**
   * Completes a 3-D Secure challenge: the right code applies the planned outcome, the fail button
   * (or running out of attempts) fails with authentication_failed; a wrong code leaves it pending.
   */
  async completeChallenge(
    id: string,
    input: { action: 'submit' | 'fail'; code?: string | undefined },
  ): Promise<{ row: ExecutionRow; wrongCode: boolean }> {
    return this.mutex.run(id, async () => {
      // A challenge past its deadline has expired: a late answer no longer pays.
      const row = await this.expireIfDue(await this.load(id));
      if (row.status !== 'authorizePending' || !row.challenge || row.challenge.redirect) return { row, wrongCode: false };
      if (input.action === 'fail') return { row: await this.settle(row, 'authentication_failed'), wrongCode: false };
      if (input.code?.trim() === this.challengeCode(row))
        return { row: await this.settle(row, row.plannedOutcome?.declineCode), wrongCode: false };
      const attemptsLeft = row.challenge.attemptsLeft - 1;
      if (attemptsLeft <= 0) return { row: await this.settle(row, 'authentication_failed'), wrongCode: true };
      return { row: await this.executions.update(id, { challenge: { ...row.challenge, attemptsLeft } }), wrongCode: true };
    });
  }

  /**
   * The shopper is back from the issuer's 3-D Secure page (a processor's redirect): the processor
   * finishes the payment with what the issuer sent (Adyen: `redirectResult` → /payments/details).
   * Anything but a waiting redirect challenge is left as it is (a reload of the return page).
   */
  async finishRedirect(id: string, details: Record<string, string>): Promise<ExecutionRow> {
    return this.mutex.run(id, async () => {
      const row = await this.expireIfDue(await this.load(id));
      if (row.status !== 'authorizePending' || !row.challenge?.redirect) return row;
      return this.applyResult(row, await this.processor.finishChallenge({ ...this.paymentContext(row), details }));
    });
  }

  /** The issuer's page a redirect challenge forwards the shopper to, when the execution waits on one. */
  challengeRedirect(row: ExecutionRow): ChallengeState['redirect'] | undefined {
    return row.status === 'authorizePending' ? row.challenge?.redirect : undefined;
  }

  /** Completes a hosted payment page or pix page with the shopper's choice. */
  async completeHostedPage(id: string, outcome: HostedOutcome): Promise<ExecutionRow> {
    return this.mutex.run(id, async () => {
      const row = await this.expireIfDue(await this.load(id));
      if (row.status !== 'authorizePending' || row.challenge) return row;
      switch (outcome) {
        case 'success':
          return this.settle(row, undefined);
        case 'cancel':
          return this.settle(row, 'payment_canceled');
        case 'error':
          return this.settle(row, 'processing_error');
        case 'pending':
          return row;
        default: {
          const exhaustive: never = outcome;
          return exhaustive;
        }
      }
    });
  }

  // ----- what the processor tells afterwards ------------------------------------------------

  /**
   * Applies a processor event (ADR 173) through the same state machine and webhooks as everything
   * else: an authorisation settles an execution still open (an unknown outcome, an abandoned
   * redirect), a cancellation cancels one, a failed refund makes its amount refundable again, a
   * chargeback opens the dispute (and a reversal or second chargeback moves it). Events about an
   * execution already past them change nothing. Returns whether an execution was found.
   */
  async applyProcessorEvent(event: ProcessorEvent): Promise<boolean> {
    // The execution the processor names by our reference, when it is the payment it knows; else by its reference.
    const named = event.executionId ? await this.executions.find(event.executionId) : undefined;
    const namedMatches =
      named !== undefined &&
      (named.processor?.pspReference === event.paymentReference ||
        (event.type === 'authorisation' && named.processor?.pspReference === undefined) ||
        (event.type === 'authorisation' && named.processor?.unknown === true));
    const found = namedMatches ? named : await this.executions.findByPspReference(event.paymentReference);
    if (!found) return false;
    await this.mutex.run(found.id, async () => {
      const row = await this.load(found.id);
      const open = row.status === 'authorizeRequested' || row.status === 'authorizePending';
      switch (event.type) {
        case 'authorisation': {
          if (!open) {
            const ours = row.status === 'authorizeSuccessful';
            if (ours !== event.success)
              this.context.log.error(
                { executionId: row.id, status: row.status, success: event.success },
                'processor authorisation differs from the execution',
              );
            return;
          }
          const state: ProcessorState = {
            ...(row.processor ?? { processor: this.processor.name, attempt: 1 }),
            pspReference: event.paymentReference,
            unknown: false,
          };
          await this.applyResult(
            row,
            event.success
              ? { kind: 'authorised', state, ...(event.storedToken ? { storedToken: event.storedToken } : {}) }
              : { kind: 'refused', code: event.declineCode ?? 'card_declined', state },
          );
          return;
        }
        case 'cancellation':
          if (open && event.success) await this.settle(row, 'payment_canceled');
          return;
        case 'refundFailed': {
          const refund = await this.executions.findRefundByProcessorReference(event.refundReference);
          if (!refund || refund.executionId !== row.id || !(await this.executions.markRefundFailed(refund.id))) return;
          await this.executions.update(row.id, { amountRefunded: Math.max(0, row.amountRefunded - refund.amountValue) });
          this.context.log.error(
            { executionId: row.id, refundId: refund.id },
            'the processor could not make a refund; its amount is refundable again',
          );
          return;
        }
        case 'dispute': {
          if (event.stage === 'opened') {
            await this.openDispute(row, event.reason);
            return;
          }
          const dispute = await this.executions.disputeOf(row.id);
          if (!dispute) return;
          if (!this.disputeDecisions) throw new Error('no dispute state machine wired to the executions service');
          await this.disputeDecisions(dispute.id, event.stage);
          return;
        }
        default: {
          const exhaustive: never = event;
          return exhaustive;
        }
      }
    });
    return true;
  }

  // ----- merchant: charges and refunds ------------------------------------------------------

  /**
   * Merchant-initiated charge on an `enabled` instrument: resolved at once. No shopper is present,
   * so 3-D Secure is exempted (challenge cards succeed unless their planned outcome declines) and
   * slow authorizations settle immediately.
   */
  async charge(request: MerchantChargeRequest, options: { idempotencyKey?: string | undefined } = {}): Promise<Execution> {
    const instrument: InstrumentRow = await this.vault.usableInstrument(request.instrumentId, request.holderReference, {
      merchantInitiated: true,
    });
    if (this.processor.name === 'sandbox') return this.chargeInSandbox(request, instrument);
    if (!instrument.processorToken || instrument.processorToken.processor !== this.processor.name)
      throw new GatewayError('INSTRUMENT_NOT_USABLE', `Instrument is not stored at ${this.processor.name}`);
    // The merchant's retry of a charge whose outcome was unknown finds the same execution and reads it.
    const chargeKey = options.idempotencyKey === undefined ? undefined : this.context.hashKey(`charge:${options.idempotencyKey}`);
    const existing = chargeKey === undefined ? undefined : await this.executions.findByChargeKey(chargeKey);
    const row =
      existing ??
      (await this.executions.insert({
        ...merchantChargeRow(request, instrument),
        processor: { processor: this.processor.name, attempt: 0, reason: request.reason, ...(chargeKey ? { chargeKey } : {}) },
      }));
    const settled = await this.mutex.run(row.id, async () => {
      const current = await this.load(row.id);
      if (current.status !== 'authorizeRequested') return current;
      if (existing) return this.settleUnknownIfAny(current);
      const input: StoredCharge = {
        ...this.paymentContext(current),
        card: this.vault.decrypt(instrument),
        token: instrument.processorToken,
        reason: request.reason,
        returnUrl: this.challengeReturnUrl(current.id),
      };
      return this.applyResult(current, await this.processor.chargeStored(input));
    });
    // Not final yet (no answer, or the processor is still processing): the merchant retries with the same key.
    if (settled.status === 'authorizeRequested')
      throw new GatewayError('PAYMENT_OUTCOME_UNKNOWN', 'The processor has not told the outcome yet; retry with the same idempotency key');
    return this.view(settled);
  }

  /** The sandbox's charge, as before the seam: its processor decides at once. */
  private async chargeInSandbox(request: MerchantChargeRequest, instrument: InstrumentRow): Promise<Execution> {
    const card = this.vault.decrypt(instrument);
    const row = await this.executions.insert(merchantChargeRow(request, instrument));
    const input: StoredCharge = {
      ...this.paymentContext(row),
      card,
      token: instrument.processorToken,
      reason: request.reason,
      returnUrl: this.challengeReturnUrl(row.id),
    };
    return this.view(await this.mutex.run(row.id, async () => this.applyResult(row, await this.processor.chargeStored(input))));
  }

  async refund(id: string, request: MerchantRefundRequest): Promise<{ refund: Refund; execution: Execution }> {
    await this.load(id);
    return this.mutex.run(id, async () => {
      const row = await this.load(id);
      if (row.status !== 'authorizeSuccessful')
        throw new GatewayError('REFUND_NOT_ALLOWED', `Cannot refund an execution in status ${row.status}`);
      // A disputed payment is the bank's to settle: refunding it too would pay the cardholder twice.
      const refusal = refundRefusal((await this.executions.disputeOf(id))?.status as DisputeStatus | undefined);
      if (refusal) throw new GatewayError('CHARGE_DISPUTED', refusal);
      const remaining = row.amountValue - row.amountRefunded;
      const amount = request.amount ?? { value: remaining, currency: row.currency };
      if (amount.currency !== row.currency) throw new GatewayError('REFUND_NOT_ALLOWED', 'Refund currency differs from the execution');
      if (amount.value <= 0 || amount.value > remaining)
        throw new GatewayError('REFUND_NOT_ALLOWED', `At most ${remaining} can be refunded`);
      let processed: { reference?: string };
      try {
        // The same refund asked again (nothing recorded yet) has the same reference: the processor's idempotency key.
        const reference = `${id}:refund:${row.amountRefunded}:${amount.value}`;
        processed = await this.processor.refund({ ...this.paymentContext(row), reference, refund: amount });
      } catch (error) {
        if (error instanceof ProcessorUnavailableError)
          throw new GatewayError(
            'PAYMENT_OUTCOME_UNKNOWN',
            'The processor did not answer the refund; retry with the same idempotency key',
            {
              cause: error,
            },
          );
        throw error;
      }
      const refundRow = await this.executions.insertRefund({
        id: newId('ref'),
        executionId: id,
        amountValue: amount.value,
        currency: amount.currency,
        reason: request.reason ?? null,
        processorReference: processed.reference ?? null,
      });
      const updated = await this.executions.update(id, { amountRefunded: row.amountRefunded + amount.value });
      const execution = await this.view(updated);
      const refund = refundView(refundRow);
      await this.webhooks.emit('refund.succeeded', execution, { refund });
      return { refund, execution };
    });
  }
}

/** A merchant-initiated card charge's new execution row: what the sandbox and a real processor both record. */
function merchantChargeRow(request: MerchantChargeRequest, instrument: InstrumentRow) {
  return {
    id: newId('exe'),
    sessionId: null,
    holderReference: request.holderReference,
    orderReference: request.orderReference ?? null,
    amountValue: request.amount.value,
    currency: request.amount.currency,
    status: 'authorizeRequested',
    paymentMethodCode: 'card',
    integrationType: 'api',
    instrumentId: instrument.id,
    merchantInitiated: true,
  } as const;
}
