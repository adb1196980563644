import type { Dispute, Execution, Refund, WebhookPayload } from '@roots/contracts/gateway';
import { GATEWAY_HEADERS } from '@roots/contracts/gateway';
import { repeatingPass, type RepeatingPass } from '@roots/server-kit';
import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../../lib/ids';
import { signWebhook } from './webhook-signature';
import type { WebhooksRepository } from './webhooks.repository';

export type WebhookOptions = {
  urls: string[];
  secret: string;
  maxAttempts: number;
  retryBaseMs: number;
  timeoutMs: number;
};

/** Delay before attempt `attempt + 1` after `attempt` failures: base × 2^(attempt-1), ±20 % jitter, at most 1 h. */
export function retryDelayMs(attempt: number, baseMs: number, random = Math.random): number {
  const exponential = Math.min(baseMs * 2 ** Math.max(0, attempt - 1), 3_600_000);
  return Math.round(exponential * (0.8 + random() * 0.4));
}

/**
 * Signed webhooks through an outbox: events are rows first, a worker delivers them with
 * exponential back-off until a 2xx or `maxAttempts`. Delivery is at least once.
 */
export class WebhooksService {
  /** The delivery loop: interval scaled to the retry base, never below 10 ms nor above 1 s. */
  private readonly loop: RepeatingPass;

  constructor(
    private readonly repository: WebhooksRepository,
    private readonly options: WebhookOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.loop = repeatingPass({
      intervalMs: Math.min(Math.max(Math.floor(options.retryBaseMs / 2), 10), 1_000),
      run: () => this.deliverDue(),
      onError: (error) => this.log.error({ err: error }, 'webhook delivery pass failed'),
    });
  }

  /** False when no URL is configured: callers can skip building payloads. */
  get enabled(): boolean {
    return this.options.urls.length > 0;
  }

  /** Queues one event for every URL: the execution, and the refund or dispute it is about. */
  async emit(type: WebhookPayload['type'], execution: Execution, about: { refund?: Refund; dispute?: Dispute } = {}): Promise<void> {
    if (!this.enabled) return;
    const payload: WebhookPayload = {
      id: newId('evt'),
      type,
      createdAt: new Date().toISOString(),
      data: { execution, ...(about.refund ? { refund: about.refund } : {}), ...(about.dispute ? { dispute: about.dispute } : {}) },
    };
    const body = JSON.stringify(payload);
    await this.repository.insert(
      this.options.urls.map((url) => ({ id: newId('whd'), eventId: payload.id, eventType: type, url, payload: body, status: 'pending' })),
    );
    this.kick();
  }

  /** Starts the delivery loop (none without a URL). */
  start(): void {
    if (this.options.urls.length > 0) this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Runs one delivery pass unless one is running. */
  kick(): void {
    this.loop.kick();
  }

  /** One pass: delivers every due webhook. Exposed for tests and the CLI. */
  async deliverDue(now = new Date()): Promise<void> {
    const leaseUntil = new Date(now.getTime() + this.options.timeoutMs + 1_000);
    const due = await this.repository.claimDue(now, leaseUntil, 20);
    await Promise.all(
      due.map(async (delivery) => {
        const attempts = delivery.attempts + 1;
        const error = await this.post(delivery.url, delivery.payload, delivery.eventId);
        if (!error) {
          await this.repository.markDelivered(delivery.id, attempts, new Date());
          return;
        }
        const next = attempts < this.options.maxAttempts ? new Date(Date.now() + retryDelayMs(attempts, this.options.retryBaseMs)) : null;
        this.log.warn(
          { deliveryId: delivery.id, eventType: delivery.eventType, attempts, error, willRetry: next !== null },
          'webhook delivery failed',
        );
        await this.repository.markFailedAttempt(delivery.id, attempts, error, next);
      }),
    );
  }

  /** POSTs one signed delivery; returns an error text, or undefined on a 2xx. */
  private async post(url: string, body: string, eventId: string): Promise<string | undefined> {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [GATEWAY_HEADERS.webhookSignature]: signWebhook(this.options.secret, body, Math.floor(Date.now() / 1000)),
          [GATEWAY_HEADERS.webhookId]: eventId,
          'user-agent': 'roots-gateway-webhooks/1',
        },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      await response.body?.cancel();
      return response.ok ? undefined : `HTTP ${response.status}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
}
