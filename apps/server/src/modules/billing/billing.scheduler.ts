import type { FastifyBaseLogger } from 'fastify';
import type { BillingService } from './billing.service';

/**
 * Runs {@link BillingService.tick} every `intervalMs` in this process. Several instances may run
 * it at once: claims and idempotency keys keep each charge to one (ADR 031).
 */
export class BillingScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly billing: BillingService,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.running = this.billing
        .tick()
        .then((result) => {
          const swept = result.swept ? result.swept.completed + result.swept.refunded : 0;
          if (Object.keys(result.processed).length > 0 || result.reconciled > 0 || swept > 0) this.log.info(result, 'billing tick');
        })
        .catch((error: unknown) => this.log.error({ err: error }, 'billing tick failed'))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.timer = setTimeout(loop, this.intervalMs);
        });
    };
    this.timer = setTimeout(loop, Math.min(this.intervalMs, 1_000));
  }

  /** Stops ticking and waits for the running pass. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
