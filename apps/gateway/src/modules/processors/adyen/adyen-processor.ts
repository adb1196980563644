import type { DeclineCode } from '@roots/contracts/gateway';
import type { FastifyBaseLogger } from 'fastify';
import type { ProcessorState, ProcessorToken } from '../../../db/schema';
import { GatewayError } from '../../../errors';
import type { ProcessorConfig } from '../../../config/env';
import {
  ProcessorUnavailableError,
  type CancelInput,
  type CardPayment,
  type ChallengeReturn,
  type PaymentProcessor,
  type ProcessorResult,
  type RefundInput,
  type RefundResult,
  type StoredCharge,
} from '../processor';
import { CheckoutAPI, Client, EnvironmentEnum, Types, type PaymentRequest, type PaymentResponse } from './adyen-library';
import { declineCodeFor, resultCodeOutcome } from './adyen-codes';
import { AdyenHttpError, AdyenTransport, AdyenUnreachableError } from './adyen-transport';

export const ADYEN = 'adyen';
/** Sends of one request (the first and its retries, all with the same idempotency key). */
export const ADYEN_MAX_SENDS = 3;

type AdyenSettings = Extract<ProcessorConfig, { name: 'adyen' }>;

export type AdyenProcessorOptions = {
  log: FastifyBaseLogger;
  /** Our customer → Adyen's `shopperReference` (stable, at least 3 characters, no personal data). */
  shopperReference: (holderReference: string) => string;
  /** Wait before retry n (1-based); default 250 ms × 2^(n−1). */
  retryDelayMs?: (retry: number) => number;
};

type Sent<T> = { ok: true; value: T } | { ok: false; unknown: boolean; error: Error };

const { PaymentRequest: PaymentRequestEnums, CardDetails } = Types.checkout;

/** Minor units as Adyen wants them; our amounts are integers already. */
function adyenAmount(amount: { value: number; currency: string }) {
  return { value: amount.value, currency: amount.currency };
}

/**
 * The Adyen connector (Checkout API v71, through Adyen's official Node library): card payments
 * from the vault, 3-D Secure by redirect, stored cards charged merchant-initiated, refunds and
 * cancels by pspReference. Every POST carries an idempotency key derived from the execution and
 * its attempt, so a retry (ours after a timeout or 5xx, or a later read) is the same request.
 * Card data goes only into the request body, over TLS to Adyen, and is never logged: log lines
 * carry the execution id, Adyen's codes and references.
 */
export class AdyenProcessor implements PaymentProcessor {
  readonly name = ADYEN;
  private readonly checkout: InstanceType<typeof CheckoutAPI>;

  constructor(
    private readonly settings: AdyenSettings,
    private readonly options: AdyenProcessorOptions,
  ) {
    const client = new Client({
      apiKey: settings.apiKey,
      environment: settings.environment === 'live' ? EnvironmentEnum.LIVE : EnvironmentEnum.TEST,
      ...(settings.liveUrlPrefix ? { liveEndpointUrlPrefix: settings.liveUrlPrefix } : {}),
      applicationName: 'roots-gateway',
    });
    client.httpClient = new AdyenTransport({ baseUrl: settings.checkoutUrl, timeoutMs: settings.timeoutMs });
    this.checkout = new CheckoutAPI(client);
  }

  async authorize(input: CardPayment): Promise<ProcessorResult> {
    return this.pay(input, (input.state?.attempt ?? 0) + 1);
  }

  async chargeStored(input: StoredCharge): Promise<ProcessorResult> {
    return this.charge(input, (input.state?.attempt ?? 0) + 1);
  }

  /** Adyen has no read of a payment by reference: the same request with the same key answers the first outcome. */
  async read(input: CardPayment | StoredCharge): Promise<ProcessorResult> {
    const attempt = input.state?.attempt ?? 1;
    return 'token' in input ? this.charge(input, attempt) : this.pay(input, attempt);
  }

  async finishChallenge(input: ChallengeReturn): Promise<ProcessorResult> {
    const attempt = input.state?.attempt ?? 1;
    const state: ProcessorState = { ...(input.state ?? { processor: ADYEN }), processor: ADYEN, attempt };
    const redirectResult = input.details.redirectResult;
    if (!redirectResult) return this.unmappable(input.executionId, state, 'the shopper came back without redirectResult');
    const sent = await this.send(input.executionId, 'payments/details', () =>
      this.checkout.PaymentsApi.paymentsDetails(
        { details: { redirectResult } },
        { idempotencyKey: `${input.executionId}:details:${attempt}` },
      ),
    );
    return this.resultOf(input.executionId, sent, state, {
      holderReference: input.holderReference,
      stored: state.storeInstrument === true,
    });
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    const pspReference = input.pspReference ?? input.state?.pspReference;
    if (!pspReference) throw new GatewayError('REFUND_NOT_ALLOWED', 'This payment was not made at Adyen');
    const sent = await this.send(input.executionId, 'refunds', () =>
      this.checkout.ModificationsApi.refundCapturedPayment(
        pspReference,
        { amount: adyenAmount(input.refund), merchantAccount: this.settings.merchantAccount, reference: input.reference },
        { idempotencyKey: input.reference },
      ),
    );
    if (sent.ok) return sent.value.pspReference ? { reference: sent.value.pspReference } : {};
    if (sent.unknown) throw new ProcessorUnavailableError('Adyen did not answer the refund', { cause: sent.error });
    throw new GatewayError('REFUND_NOT_ALLOWED', `Adyen refused the refund: ${sent.error.message}`);
  }

  async cancel(input: CancelInput): Promise<void> {
    const sent = await this.send(input.executionId, 'cancels', () =>
      this.checkout.ModificationsApi.cancelAuthorisedPaymentByPspReference(
        input.pspReference,
        { merchantAccount: this.settings.merchantAccount, reference: `${input.executionId}:cancel` },
        { idempotencyKey: `${input.executionId}:cancel` },
      ),
    );
    if (!sent.ok) throw new ProcessorUnavailableError(`Adyen did not take the cancel: ${sent.error.message}`, { cause: sent.error });
  }

  /** A shopper-present first payment with the vault's card, storing it for later when asked. */
  private async pay(input: CardPayment, attempt: number): Promise<ProcessorResult> {
    const store = input.storeInstrument;
    const request: PaymentRequest = {
      amount: adyenAmount(input.amount),
      merchantAccount: this.settings.merchantAccount,
      reference: input.executionId,
      returnUrl: input.returnUrl,
      channel: PaymentRequestEnums.ChannelEnum.Web,
      shopperInteraction: PaymentRequestEnums.ShopperInteractionEnum.Ecommerce,
      paymentMethod: {
        type: CardDetails.TypeEnum.Scheme,
        number: input.card.number,
        expiryMonth: String(input.card.expiryMonth).padStart(2, '0'),
        expiryYear: String(input.card.expiryYear),
        ...(input.card.holderName ? { holderName: input.card.holderName } : {}),
      },
      ...(store
        ? {
            storePaymentMethod: true,
            shopperReference: this.options.shopperReference(input.holderReference),
            recurringProcessingModel: PaymentRequestEnums.RecurringProcessingModelEnum.Subscription,
          }
        : {}),
      ...(input.shopper?.ip ? { shopperIP: input.shopper.ip } : {}),
    };
    const state: ProcessorState = { processor: ADYEN, attempt, storeInstrument: store };
    const sent = await this.send(input.executionId, 'payments', () =>
      this.checkout.PaymentsApi.payments(request, { idempotencyKey: `${input.executionId}:payment:${attempt}` }),
    );
    return this.resultOf(input.executionId, sent, state, { holderReference: input.holderReference, stored: store });
  }

  /** A merchant-initiated payment with the stored payment method (renewal: Subscription; one-click add-on: CardOnFile). */
  private async charge(input: StoredCharge, attempt: number): Promise<ProcessorResult> {
    const state: ProcessorState = { ...(input.state ?? { processor: ADYEN }), processor: ADYEN, attempt };
    if (!input.token || input.token.processor !== ADYEN)
      return this.unmappable(input.executionId, state, 'the instrument has no stored payment method at Adyen');
    const request: PaymentRequest = {
      amount: adyenAmount(input.amount),
      merchantAccount: this.settings.merchantAccount,
      reference: input.executionId,
      returnUrl: input.returnUrl,
      paymentMethod: { type: CardDetails.TypeEnum.Scheme, storedPaymentMethodId: input.token.storedPaymentMethodId },
      shopperReference: input.token.shopperReference,
      shopperInteraction: PaymentRequestEnums.ShopperInteractionEnum.ContAuth,
      recurringProcessingModel:
        input.reason === 'recurring'
          ? PaymentRequestEnums.RecurringProcessingModelEnum.Subscription
          : PaymentRequestEnums.RecurringProcessingModelEnum.CardOnFile,
    };
    const sent = await this.send(input.executionId, 'payments', () =>
      this.checkout.PaymentsApi.payments(request, { idempotencyKey: `${input.executionId}:charge:${attempt}` }),
    );
    return this.resultOf(input.executionId, sent, state, { holderReference: input.holderReference, stored: false });
  }

  /** One request, retried on timeouts, lost connections, 429 and 5xx with the same key, ADYEN_MAX_SENDS sends at most. */
  private async send<T>(executionId: string, operation: string, call: () => Promise<T>): Promise<Sent<T>> {
    for (let sendNumber = 1; ; sendNumber += 1) {
      try {
        return { ok: true, value: await call() };
      } catch (error) {
        const retryable = error instanceof AdyenUnreachableError || (error instanceof AdyenHttpError && error.retryable);
        const reason = error instanceof Error ? error : new Error(String(error));
        if (retryable && sendNumber < ADYEN_MAX_SENDS) {
          this.options.log.warn(
            { executionId, operation, send: sendNumber, err: { message: reason.message } },
            'Adyen call failed; retrying with the same idempotency key',
          );
          await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs?.(sendNumber) ?? 250 * 2 ** (sendNumber - 1)));
          continue;
        }
        // Adyen's codes and our message only: never the request (card data) nor the raw answer.
        this.options.log.error(
          { executionId, operation, sends: sendNumber, err: { message: reason.message } },
          retryable ? 'Adyen did not answer after the retries; outcome unknown' : 'Adyen refused the request',
        );
        return { ok: false, unknown: retryable, error: reason };
      }
    }
  }

  /** Adyen's answer as an outcome: every resultCode has one (adyen-codes.ts); anything else fails loudly. */
  private resultOf(
    executionId: string,
    sent: Sent<PaymentResponse>,
    base: ProcessorState,
    context: { holderReference: string; stored: boolean },
  ): ProcessorResult {
    if (!sent.ok) {
      if (sent.unknown) return { kind: 'unknown', state: { ...base, unknown: true } };
      return this.unmappable(executionId, base, sent.error.message, 'processing_error');
    }
    const response = sent.value;
    const state: ProcessorState = { ...base, unknown: false, ...(response.pspReference ? { pspReference: response.pspReference } : {}) };
    const outcome = resultCodeOutcome(response.resultCode);
    switch (outcome) {
      case 'authorised': {
        const storedPaymentMethodId =
          response.additionalData?.['tokenization.storedPaymentMethodId'] ??
          response.additionalData?.['recurring.recurringDetailReference'];
        const storedToken: ProcessorToken | undefined =
          context.stored && storedPaymentMethodId
            ? { processor: ADYEN, storedPaymentMethodId, shopperReference: this.options.shopperReference(context.holderReference) }
            : undefined;
        if (context.stored && !storedToken)
          this.options.log.error(
            { executionId, pspReference: response.pspReference },
            'Adyen authorised but returned no stored payment method id',
          );
        return { kind: 'authorised', state, ...(storedToken ? { storedToken } : {}) };
      }
      case 'refused': {
        const code = declineCodeFor({ code: response.refusalReasonCode, reason: response.refusalReason });
        if (code) return { kind: 'refused', code, state };
        return this.unmappable(
          executionId,
          state,
          `refusal not in the table: resultCode ${response.resultCode}, refusalReasonCode ${response.refusalReasonCode ?? '-'}, refusalReason ${response.refusalReason ?? '-'}`,
          response.resultCode === 'Error' ? 'processing_error' : 'card_declined',
        );
      }
      case 'cancelled':
        return { kind: 'refused', code: 'payment_canceled', state };
      case 'processing':
        return { kind: 'processing', state };
      case 'challenge': {
        const action = response.action;
        if (action?.type === 'redirect' && 'url' in action && action.url) {
          const data = 'data' in action && action.data ? (action.data as Record<string, string>) : undefined;
          return {
            kind: 'challenge',
            state,
            redirect: { url: action.url, method: action.method?.toUpperCase() === 'POST' ? 'POST' : 'GET', ...(data ? { data } : {}) },
          };
        }
        return this.unmappable(executionId, state, `RedirectShopper without a redirect action (${action?.type ?? 'none'})`);
      }
      case 'unexpected':
      case undefined:
        return this.unmappable(executionId, state, `resultCode ${String(response.resultCode)} is not one the gateway asks for`);
      default: {
        const exhaustive: never = outcome;
        return exhaustive;
      }
    }
  }

  /** An answer the connector cannot map: the execution fails (never succeeds), the raw codes are logged at error level. */
  private unmappable(executionId: string, state: ProcessorState, detail: string, code: DeclineCode = 'processing_error'): ProcessorResult {
    this.options.log.error(
      { executionId, pspReference: state.pspReference, detail, declineCode: code },
      'Adyen answer not mappable; execution failed',
    );
    return { kind: 'refused', code, state };
  }
}
