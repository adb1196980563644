import {
  createSessionResponseSchema,
  disputeSchema,
  executionListSchema,
  executionSchema,
  GATEWAY_HEADERS,
  gatewayErrorSchema,
  merchantValidationResponseSchema,
  refreshSessionTokenResponseSchema,
  refundSchema,
  type CreateSessionRequest,
  type Dispute,
  type DisputeEvidenceRequest,
  type Execution,
  type ExecutionList,
  type GatewayErrorCode,
  type MerchantChargeRequest,
  type MerchantRefundRequest,
  type RefreshSessionTokenResponse,
  type Refund,
  type SdkInitPayload,
} from '@roots/contracts/gateway';
import { z } from 'zod';
import { requestIdHeaders } from '@roots/observability';

/** A failed gateway call: `status` 0 means no answer (network error or timeout). */
export class GatewayCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: GatewayErrorCode | 'NETWORK_ERROR' | 'BAD_RESPONSE',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GatewayCallError';
  }

  /** True when the same call may succeed later (no answer, 5xx, 409 in progress, 429). */
  get retryable(): boolean {
    return this.status === 0 || this.status >= 500 || this.status === 429 || this.code === 'IDEMPOTENCY_REQUEST_IN_PROGRESS';
  }
}

export type GatewayClientOptions = {
  baseUrl: string;
  merchantKey: string;
  timeoutMs: number;
};

const refundAnswerSchema = z.object({ refund: refundSchema, execution: executionSchema });

/**
 * The gateway's merchant API (server-to-server, `x-api-key`), contracts in
 * `@roots/contracts/gateway`. Every mutating call carries the caller's idempotency key.
 */
export class GatewayClient {
  constructor(private readonly options: GatewayClientOptions) {}

  createSession(request: CreateSessionRequest, idempotencyKey: string): Promise<SdkInitPayload> {
    return this.call('POST', '/merchant/v1/sessions', createSessionResponseSchema, { body: request, idempotencyKey });
  }

  /** A fresh bearer token of the payment session the given (possibly expired) token belongs to. */
  refreshSessionToken(bearerToken: string): Promise<RefreshSessionTokenResponse> {
    return this.call('POST', '/merchant/v1/sessions/token', refreshSessionTokenResponseSchema, { body: { bearerToken } });
  }

  getExecution(id: string): Promise<Execution> {
    return this.call('GET', `/merchant/v1/executions/${encodeURIComponent(id)}`, executionSchema);
  }

  /** One page of the executions changed at or after `since`, oldest change first (the sweep, ADR 127). */
  listExecutions(query: { since: Date; cursor?: string | undefined; limit: number }): Promise<ExecutionList> {
    const params = new URLSearchParams({ since: query.since.toISOString(), limit: String(query.limit) });
    if (query.cursor) params.set('cursor', query.cursor);
    return this.call('GET', `/merchant/v1/executions?${params}`, executionListSchema);
  }

  /** Merchant-initiated charge of a stored instrument; a repeated key replays the first answer. */
  charge(request: MerchantChargeRequest, idempotencyKey: string): Promise<Execution> {
    return this.call('POST', '/merchant/v1/charges', executionSchema, { body: request, idempotencyKey });
  }

  refund(executionId: string, request: MerchantRefundRequest, idempotencyKey: string): Promise<{ refund: Refund; execution: Execution }> {
    return this.call('POST', `/merchant/v1/executions/${encodeURIComponent(executionId)}/refunds`, refundAnswerSchema, {
      body: request,
      idempotencyKey,
    });
  }

  /** One dispute as the gateway has it now (a dispute unanswered past its due date reads lost). */
  getDispute(id: string): Promise<Dispute> {
    return this.call('GET', `/merchant/v1/disputes/${encodeURIComponent(id)}`, disputeSchema);
  }

  /** The merchant's evidence for a dispute (ADR 181); a repeated key replays the first answer. */
  submitDisputeEvidence(id: string, request: DisputeEvidenceRequest, idempotencyKey: string): Promise<Dispute> {
    return this.call('POST', `/merchant/v1/disputes/${encodeURIComponent(id)}/evidence`, disputeSchema, { body: request, idempotencyKey });
  }

  /** Gives a disputed payment up (the dispute ends `accepted`); a repeated key replays the first answer. */
  acceptDispute(id: string, idempotencyKey: string): Promise<Dispute> {
    return this.call('POST', `/merchant/v1/disputes/${encodeURIComponent(id)}/accept`, disputeSchema, { idempotencyKey });
  }

  /** Apple-type wallet merchant validation, done by the gateway for the merchant. */
  appleMerchantValidation(input: { sessionUrl: string; clientDomain: string }): Promise<z.infer<typeof merchantValidationResponseSchema>> {
    return this.call('POST', '/merchant/v1/wallets/apple-pay/merchant-validation', merchantValidationResponseSchema, { body: input });
  }

  private async call<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodType<T>,
    options: { body?: unknown; idempotencyKey?: string } = {},
  ): Promise<T> {
    // The request id of the call this runs for (if any) goes along, so the gateway logs the same id.
    const headers: Record<string, string> = {
      ...requestIdHeaders(),
      [GATEWAY_HEADERS.merchantKey]: this.options.merchantKey,
      accept: 'application/json',
    };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey) headers[GATEWAY_HEADERS.idempotencyKey] = options.idempotencyKey;
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl}${path}`, {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new GatewayCallError(0, 'NETWORK_ERROR', `gateway ${method} ${path.split('/').slice(0, 4).join('/')} failed`, { cause: error });
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new GatewayCallError(response.status, 'BAD_RESPONSE', `gateway answered ${response.status} without JSON`);
    }
    if (!response.ok) {
      const parsed = gatewayErrorSchema.safeParse(json);
      throw new GatewayCallError(
        response.status,
        parsed.success ? parsed.data.code : 'BAD_RESPONSE',
        parsed.success ? parsed.data.error : `gateway answered ${response.status}`,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new GatewayCallError(response.status, 'BAD_RESPONSE', `gateway answer does not match its contract: ${parsed.error.message}`);
    return parsed.data;
  }
}
