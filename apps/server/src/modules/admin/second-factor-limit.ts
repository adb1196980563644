import { API_MESSAGES, formatMessage } from '@roots/contracts';
import { Counter, type Registry } from '@roots/observability';
import { AppError } from '../../errors';
import type { SharedRateLimitCounters } from '../../lib/shared-rate-limit';

/** What the server counts of the authenticator step, for the alert rules (ops/prometheus). */
export type SecondFactorMetrics = { failure(): void; lockout(): void };

/** Metrics nobody scrapes (the operator commands never check a code). */
export const UNSCRAPED_SECOND_FACTOR_METRICS: SecondFactorMetrics = { failure: () => undefined, lockout: () => undefined };

/**
 * `roots_operator_second_factor_failures_total` and `roots_operator_second_factor_lockouts_total`
 * on the server's registry: counted per instance, so the rules sum them.
 */
export function secondFactorMetrics(registry: Registry): SecondFactorMetrics {
  const failures = new Counter({
    name: 'roots_operator_second_factor_failures_total',
    help: 'Wrong authenticator codes entered by operators (ADR 168)',
    registers: [registry],
  });
  const lockouts = new Counter({
    name: 'roots_operator_second_factor_lockouts_total',
    help: 'Operators whose second-factor step was locked after too many wrong authenticator codes (ADR 168)',
    registers: [registry],
  });
  return { failure: () => failures.inc(), lockout: () => lockouts.inc() };
}

export type SecondFactorLimitSettings = {
  counters: SharedRateLimitCounters;
  /** Wrong codes before the step locks (OPERATOR_TOTP_MAX_FAILURES). */
  maxFailures: number;
  /** How long it stays locked, and the window the wrong codes are counted in (OPERATOR_TOTP_LOCK_MINUTES). */
  lockMinutes: number;
  metrics: SecondFactorMetrics;
};

/**
 * The failure limit of one operator's authenticator step (issue 32, ADR 168), whatever the client
 * addresses: `maxFailures` wrong codes within `lockMinutes` lock that operator's step for
 * `lockMinutes`, the right code included. Counted in `rate_limit_hits` (ADR 116), so every instance
 * holds one count. Each try is counted before the code is checked (parallel tries cannot slip past
 * the limit); a right code clears the count.
 */
export class SecondFactorLimit {
  constructor(private readonly settings: SecondFactorLimitSettings) {}

  get lockMinutes(): number {
    return this.settings.lockMinutes;
  }

  private refusal(resetInMs: number): AppError {
    const minutes = Math.max(1, Math.ceil(resetInMs / 60_000));
    return new AppError(
      'RATE_LIMITED',
      formatMessage(API_MESSAGES.tooManyRequests, { after: `${minutes} minute${minutes === 1 ? '' : 's'}` }),
    );
  }

  /**
   * A try of `email`'s authenticator code: its number among the tries of the current window.
   * @throws AppError RATE_LIMITED (429) while the step is locked.
   */
  async attempt(email: string): Promise<number> {
    const lock = await this.settings.counters.peek(`operator-totp:lock:${email}`);
    if (lock.hits > 0) throw this.refusal(lock.resetInMs);
    const { hits, resetInMs } = await this.settings.counters.hit(`operator-totp:tries:${email}`, this.settings.lockMinutes * 60_000);
    if (hits > this.settings.maxFailures) throw this.refusal(resetInMs);
    return hits;
  }

  /** The try numbered `attempt` was wrong: true when it locked the step. */
  async failed(email: string, attempt: number): Promise<boolean> {
    this.settings.metrics.failure();
    if (attempt < this.settings.maxFailures) return false;
    await this.settings.counters.hit(`operator-totp:lock:${email}`, this.settings.lockMinutes * 60_000);
    this.settings.metrics.lockout();
    return true;
  }

  /** The right code: the count starts again. */
  async succeeded(email: string): Promise<void> {
    await this.settings.counters.reset(`operator-totp:tries:${email}`);
  }
}
