import { API_MESSAGES } from '@roots/contracts';
import { createHash } from 'node:crypto';
import { AppError } from '../errors';
import type { Clock } from './clock';
import { normalizeEmail } from './mask';

/** Entries kept before old windows are swept. */
const SWEEP_AT_SIZE = 10_000;

/**
 * Fixed-window limit per email address (hashed; the address is never kept). Per instance, like the
 * per-IP limit: N instances allow up to N × the limit, which is acceptable for abuse control (ADR 030).
 */
export class EmailRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** @throws AppError RATE_LIMITED (429) past the limit. */
  hit(email: string): void {
    const now = this.clock.now().getTime();
    const key = createHash('sha256').update(normalizeEmail(email)).digest('base64url');
    if (this.windows.size > SWEEP_AT_SIZE) {
      for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
    }
    const window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      this.windows.set(key, { start: now, count: 1 });
      return;
    }
    window.count += 1;
    if (window.count > this.limit) throw new AppError('RATE_LIMITED', API_MESSAGES.tooManyRequestsForEmail);
  }
}
