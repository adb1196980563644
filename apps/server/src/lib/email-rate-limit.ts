import { API_MESSAGES } from '@roots/contracts';
import { createHash } from 'node:crypto';
import { AppError } from '../errors';
import { normalizeEmail } from './mask';
import type { SharedRateLimitCounters } from './shared-rate-limit';

/**
 * Fixed-window limit per email address (hashed; the address is never kept), counted in the shared
 * `rate_limit_hits` table so that N instances enforce one limit (ADR 116).
 */
export class EmailRateLimiter {
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly counters: SharedRateLimitCounters,
    /** Names this limit's counters apart from other per-email limits. */
    private readonly scope = 'api',
  ) {}

  /** @throws AppError RATE_LIMITED (429) past the limit. */
  async hit(email: string): Promise<void> {
    const key = `email:${this.scope}:${createHash('sha256').update(normalizeEmail(email)).digest('base64url')}`;
    const { hits } = await this.counters.hit(key, this.windowMs);
    if (hits > this.limit) throw new AppError('RATE_LIMITED', API_MESSAGES.tooManyRequestsForEmail);
  }
}
