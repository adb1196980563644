import { repeatingPass, type RepeatingPass } from '@roots/server-kit';
import type { FastifyBaseLogger } from 'fastify';
import type { BillingService } from './billing.service';

/**
 * Runs {@link BillingService.tick} every `intervalMs` in this process. Several instances may run
 * it at once: claims and idempotency keys keep each charge to one (ADR 031).
 */
export class BillingScheduler {
  private readonly loop: RepeatingPass;

  constructor(billing: BillingService, intervalMs: number, log: FastifyBaseLogger) {
    this.loop = repeatingPass({
      intervalMs,
      firstAfterMs: Math.min(intervalMs, 1_000),
      run: async () => {
        const result = await billing.tick();
        const swept = result.swept ? result.swept.completed + result.swept.refunded : 0;
        if (Object.keys(result.processed).length > 0 || result.reconciled > 0 || swept > 0) log.info(result, 'billing tick');
      },
      onError: (error) => log.error({ err: error }, 'billing tick failed'),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Stops ticking and waits for the running pass. */
  stop(): Promise<void> {
    return this.loop.stop();
  }
}
