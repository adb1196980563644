import {
  CARD_VERIFICATION_AMOUNT,
  CARD_VERIFICATION_METHODS,
  GATEWAY_UNAUTHORIZED_MESSAGE,
  SANDBOX_VAULT_PROVIDER_CONFIG_ID,
  type CreateSessionRequest,
  type RefreshSessionTokenResponse,
  type SdkInitPayload,
} from '@roots/contracts/gateway';
import { GatewayError } from '../../errors';
import { newId } from '../../lib/ids';
import type { ExecutionsRepository } from '../executions/executions.repository';
import type { BearerTokens } from '../sessions/bearer-token';
import { DEFAULT_PAYMENT_METHODS, describePaymentMethod } from '../sessions/payment-methods';
import type { SessionRow, SessionsRepository } from '../sessions/sessions.repository';

export type SessionsContext = {
  publicUrl: () => string;
  ttlSeconds: number;
  merchantName: string;
};

/** Client sessions: the merchant creates one per checkout; the SDK initialises with the answer. */
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly executions: ExecutionsRepository,
    private readonly tokens: BearerTokens,
    private readonly context: SessionsContext,
  ) {}

  async create(input: CreateSessionRequest, now = new Date()): Promise<SdkInitPayload> {
    // A zero-amount session is a card verification (ADR 143): card only, whatever the default.
    const defaults = input.amount.value === CARD_VERIFICATION_AMOUNT ? CARD_VERIFICATION_METHODS : DEFAULT_PAYMENT_METHODS;
    const codes = [...new Set(input.paymentMethods ?? defaults)];
    const countryCode = (input.countryCode ?? 'US').toUpperCase();
    const sessionId = newId('ses');
    const executionId = newId('exe');
    const expiresAt = new Date(now.getTime() + Math.min(input.tokenTtlSeconds ?? this.context.ttlSeconds, this.context.ttlSeconds) * 1000);
    await this.executions.insert({
      id: executionId,
      sessionId,
      holderReference: input.holderReference,
      orderReference: input.orderReference ?? null,
      amountValue: input.amount.value,
      currency: input.amount.currency,
      status: 'created',
    });
    await this.sessions.insert({
      id: sessionId,
      holderReference: input.holderReference,
      orderReference: input.orderReference ?? null,
      amountValue: input.amount.value,
      currency: input.amount.currency,
      countryCode,
      paymentMethods: codes,
      executionId,
      expiresAt,
    });
    const bearerToken = await this.tokens.sign({ sessionId, holderReference: input.holderReference }, expiresAt);
    const base = this.context.publicUrl();
    return {
      sessionId,
      bearerToken,
      expiresAt: expiresAt.toISOString(),
      gatewayOrigin: new URL(base).origin,
      vaultURL: `${base}/vault`,
      vaultProviderConfigId: SANDBOX_VAULT_PROVIDER_CONFIG_ID,
      executionId,
      amount: input.amount,
      holderReference: input.holderReference,
      paymentMethods: codes.map((code) => describePaymentMethod(code, { countryCode, merchantName: this.context.merchantName })),
      links: {
        execution: `${base}/v1/executions/${executionId}`,
        authorize: `${base}/v1/executions/${executionId}/authorize`,
        saveInstrument: `${base}/v1/instruments`,
        binLookup: `${base}/v1/bin-lookup`,
        instruments: `${base}/v1/instruments`,
        countries: `${base}/assets/countries.json`,
        applePaySession: `${base}/v1/wallets/apple-pay/session`,
        tokenize: `${base}/vault/v1/tokens`,
      },
    };
  }

  /**
   * A fresh bearer token of the same session (same holder, same execution), for a merchant whose
   * shopper kept the checkout open past the token's expiry. The old token proves the session: signed
   * by us, of an existing session, expired for at most the refresh window. The session's expiry moves on.
   */
  async refreshToken(bearerToken: string, now = new Date()): Promise<RefreshSessionTokenResponse> {
    const principal = await this.tokens.verify(bearerToken, { forRefresh: true });
    const session = await this.sessions.find(principal.sessionId);
    if (!session || session.holderReference !== principal.holderReference)
      throw new GatewayError('UNAUTHORIZED', GATEWAY_UNAUTHORIZED_MESSAGE);
    const expiresAt = new Date(now.getTime() + this.context.ttlSeconds * 1000);
    await this.sessions.extend(session.id, expiresAt);
    const token = await this.tokens.sign({ sessionId: session.id, holderReference: session.holderReference }, expiresAt);
    return { sessionId: session.id, bearerToken: token, expiresAt: expiresAt.toISOString() };
  }

  async get(sessionId: string): Promise<SessionRow> {
    const session = await this.sessions.find(sessionId);
    if (!session) throw new GatewayError('UNAUTHORIZED', 'Session not found');
    return session;
  }
}
