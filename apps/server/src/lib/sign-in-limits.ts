import { API_MESSAGES, formatMessage } from '@roots/contracts';
import { createHash } from 'node:crypto';
import { AppError } from '../errors';
import { normalizeEmail } from './mask';
import type { SharedRateLimitCounters } from './shared-rate-limit';

const HOUR_MS = 3_600_000;

export type SignInLimitSettings = {
  /** Sign-in codes one client address may ask for per hour (whatever the emails). */
  codeRequestsPerIp: number;
  /** Sign-in codes one email address may receive per hour (whoever asks): no email bombing. */
  codeRequestsPerEmail: number;
  /** Codes one client address may try per hour, across emails and codes: no brute force. */
  guessesPerIp: number;
};

const hashed = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * The sign-in limits of issue 22, counted in the shared `rate_limit_hits` table (ADR 116) so every
 * instance enforces one limit. The client address is the server's own rule (`request.ip`, which
 * follows TRUST_PROXY): a spoofed X-Forwarded-For gets no fresh bucket, and one client's requests
 * never lock out another's. better-auth's own limiter is off: it could not see the address.
 */
export class SignInLimits {
  constructor(
    private readonly settings: SignInLimitSettings,
    private readonly counters: SharedRateLimitCounters,
  ) {}

  private async count(key: string, limit: number): Promise<void> {
    const { hits, resetInMs } = await this.counters.hit(key, HOUR_MS);
    if (hits <= limit) return;
    const minutes = Math.max(1, Math.ceil(resetInMs / 60_000));
    throw new AppError(
      'RATE_LIMITED',
      formatMessage(API_MESSAGES.tooManyRequests, { after: `${minutes} minute${minutes === 1 ? '' : 's'}` }),
    );
  }

  /** A sign-in code asked for `email` by the client at `ip`. @throws AppError RATE_LIMITED (429) */
  async codeRequest(ip: string, email: string): Promise<void> {
    await this.count(`signin-code:ip:${ip}`, this.settings.codeRequestsPerIp);
    await this.count(`signin-code:email:${hashed(normalizeEmail(email))}`, this.settings.codeRequestsPerEmail);
  }

  /** A code tried by the client at `ip`. @throws AppError RATE_LIMITED (429) */
  async guess(ip: string): Promise<void> {
    await this.count(`signin-guess:ip:${ip}`, this.settings.guessesPerIp);
  }
}
