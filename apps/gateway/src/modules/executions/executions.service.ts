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
import type { PlannedOutcome } from '../../db/schema';
import { GatewayError } from '../../errors';
import { newId } from '../../lib/ids';
import { KeyedMutex } from '../../lib/keyed-mutex';
import type { PageTokens } from '../pages/page-token';
import { applePayNetworkToken, type ApplePayNetworkToken } from '../provider-sandbox/apple-pay-token';
import { verifyGooglePayToken, type GooglePaySandboxCard } from '../provider-sandbox/google-pay-token';
import { GOOGLE_PAY_GATEWAY_MERCHANT_ID } from '../sessions/payment-methods';
import type { ClientPrincipal } from '../sessions/bearer-token';
import type { SessionsRepository } from '../sessions/sessions.repository';
import type { VaultService } from '../vault/vault.service';
import type { InstrumentRow } from '../vault/vault.repository';
import type { WebhooksService } from '../webhooks/webhooks.service';
import { refundRefusal } from '../disputes/dispute-state';
import { disputeView, executionView, refundView } from './execution-view';
import type { ExecutionPatch, ExecutionRow, ExecutionsRepository } from './executions.repository';
import { transition, type ExecutionEvent } from './execution-state';
import { decodeListCursor, encodeListCursor } from './list-cursor';
import { cardScenario, DECLINE_MESSAGES, triggerScenario, type CardScenario } from './test-cards';

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
};

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
      let row = await this.loadForClient(principal, id);
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
    return this.mutex.run(id, async () => this.view(await this.expireIfDue(await this.load(id))));
  }

  /**
   * The merchant's listing of executions changed since a time (`GET /merchant/v1/executions`),
   * oldest change first. The cursor is the last item's (change time, id), base64url-encoded.
   */
  async listForMerchant(query: { since?: string | undefined; cursor?: string | undefined; limit: number }): Promise<ExecutionList> {
    const after = query.cursor === undefined ? undefined : decodeListCursor(query.cursor);
    // The listing tells what is over: anything past its deadline is expired first.
    await this.expireDue();
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

  async authorize(principal: ClientPrincipal, id: string, request: AuthorizeRequest): Promise<Execution> {
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
        return this.view(await this.resolve(requested, item, instrument));
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
  private async resolve(row: ExecutionRow, item: PaymentItem, instrument: InstrumentRow | undefined): Promise<ExecutionRow> {
    switch (item.paymentMethodCode) {
      case 'card':
        if (!instrument) throw new Error('card payment without a checked instrument');
        return this.resolveCard(row, item, instrument);
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

  private async resolveCard(row: ExecutionRow, item: PaymentItem, instrument: InstrumentRow): Promise<ExecutionRow> {
    if (item.storeInstrument && instrument.status === 'transient') await this.vault.setInstrumentStatus(instrument.id, 'created');
    const card = this.vault.decrypt(instrument);
    const scenario = cardScenario({ number: card.number, holderName: card.holderName, amountValue: row.amountValue });
    const withInstrument = await this.executions.update(row.id, { instrumentId: instrument.id });
    return this.applyScenario(withInstrument, scenario);
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
      case 'challenge': {
        // A challenge nobody answers (the window was closed) expires, so the payment ends for sure.
        const expiresAt = new Date(Date.now() + this.context.challengeTtlMs).toISOString();
        return this.move(row, 'pend', {
          challenge: { nonce: randomBytes(12).toString('base64url'), attemptsLeft: CHALLENGE_ATTEMPTS },
          plannedOutcome: scenario.after ? { declineCode: scenario.after, expiresAt } : { expiresAt },
          finalState: { code: 'authorizePending', errors: [] },
        });
      }
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
    if (row.status === 'authorizePending' && expiresAt && Date.parse(expiresAt) <= Date.now()) return this.settle(row, 'payment_expired');
    return row;
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
      if (row.status !== 'authorizePending' || !row.challenge) return { row, wrongCode: false };
      if (input.action === 'fail') return { row: await this.settle(row, 'authentication_failed'), wrongCode: false };
      if (input.code?.trim() === this.challengeCode(row))
        return { row: await this.settle(row, row.plannedOutcome?.declineCode), wrongCode: false };
      const attemptsLeft = row.challenge.attemptsLeft - 1;
      if (attemptsLeft <= 0) return { row: await this.settle(row, 'authentication_failed'), wrongCode: true };
      return { row: await this.executions.update(id, { challenge: { ...row.challenge, attemptsLeft } }), wrongCode: true };
    });
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

  // ----- merchant: charges and refunds ------------------------------------------------------

  /**
   * Merchant-initiated charge on an `enabled` instrument: resolved at once. No shopper is present,
   * so 3-D Secure is exempted (challenge cards succeed unless their planned outcome declines) and
   * slow authorizations settle immediately.
   */
  async charge(request: MerchantChargeRequest): Promise<Execution> {
    const instrument: InstrumentRow = await this.vault.usableInstrument(request.instrumentId, request.holderReference, {
      merchantInitiated: true,
    });
    const card = this.vault.decrypt(instrument);
    const row = await this.executions.insert({
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
    });
    const scenario = cardScenario({
      number: card.number,
      holderName: card.holderName,
      amountValue: request.amount.value,
      merchantInitiated: true,
    });
    const declineCode = scenario.kind === 'decline' ? scenario.code : scenario.kind === 'challenge' ? scenario.after : undefined;
    return this.view(
      await this.mutex.run(row.id, async () => {
        const settled = await this.settle(row, declineCode);
        return scenario.kind === 'dispute' ? this.openDispute(settled, scenario.reason) : settled;
      }),
    );
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
      const refundRow = await this.executions.insertRefund({
        id: newId('ref'),
        executionId: id,
        amountValue: amount.value,
        currency: amount.currency,
        reason: request.reason ?? null,
      });
      const updated = await this.executions.update(id, { amountRefunded: row.amountRefunded + amount.value });
      const execution = await this.view(updated);
      const refund = refundView(refundRow);
      await this.webhooks.emit('refund.succeeded', execution, { refund });
      return { refund, execution };
    });
  }
}
