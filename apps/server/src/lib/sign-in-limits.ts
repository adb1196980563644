import { API_MESSAGES, formatMessage } from '@roots/contracts';
import { createHash, createHmac } from 'node:crypto';
import { AppError } from '../errors';
import { normalizeEmail } from './mask';
import type { SharedRateLimitCounters } from './shared-rate-limit';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export type SignInLimitSettings = {
  /** Different emails one client address may ask sign-in codes for per hour (asking again for one counts once). */
  emailsPerIp: number;
  /** Codes one client address may try per hour, across codes and emails. */
  guessesPerIp: number;
  /** Codes tried for one email per minute, whoever tries: guessing stays slow without locking the email for long. */
  guessesPerEmailPerMinute: number;
  /** At least this long between an email and a re-send of the same code to one address (0: no spacing, test suites). */
  resendSeconds: number;
  /** Re-sends of a code the address was already sent, per address per day (a new code is always sent). */
  resendsPerDay: number;
  /** Keys the marker of which code an address was sent (AUTH_SECRET): the table never holds a guessable digest of a code. */
  secret: string;
};

const hashed = (value: string) => createHash('sha256').update(value).digest('base64url');

/** What became of a code better-auth asked to email: sent, or held because the address had one moments ago. */
export type CodeEmailDecision = 'send' | 'hold';

/**
 * The sign-in limits (issue 22, reshaped by issue 32 and ADR 167), counted in the shared
 * `rate_limit_hits` table (ADR 116) so every instance enforces one limit. The client address is the
 * server's own rule (`request.ip`, which follows TRUST_PROXY): a spoofed X-Forwarded-For gets no
 * fresh bucket. Nothing a stranger does with an email locks its owner out of asking for a code:
 * the code emails to one address are shaped (spaced, a daily cap on re-sends of the same code)
 * while the request itself always succeeds; guesses are bounded per code (better-auth), per client
 * address, and per email per minute.
 */
export class SignInLimits {
  constructor(
    private readonly settings: SignInLimitSettings,
    private readonly counters: SharedRateLimitCounters,
  ) {}

  private async count(key: string, limit: number, windowMs: number): Promise<void> {
    const { hits, resetInMs } = await this.counters.hit(key, windowMs);
    if (hits <= limit) return;
    const minutes = Math.max(1, Math.ceil(resetInMs / 60_000));
    throw new AppError(
      'RATE_LIMITED',
      formatMessage(API_MESSAGES.tooManyRequests, { after: `${minutes} minute${minutes === 1 ? '' : 's'}` }),
    );
  }

  /**
   * A sign-in code asked for `email` by the client at `ip`: only the number of different emails an
   * address asks for is limited. Never refused for the email itself. @throws AppError RATE_LIMITED (429)
   */
  async codeRequest(ip: string, email: string): Promise<void> {
    const emailKey = hashed(normalizeEmail(email));
    const { hits } = await this.counters.hit(`signin-code:ip-email:${ip}:${emailKey}`, HOUR_MS);
    if (hits === 1) await this.count(`signin-code:ip:${ip}`, this.settings.emailsPerIp, HOUR_MS);
  }

  /**
   * Whether to email `code` to `email` now. better-auth re-sends the same code while it is valid
   * (resendStrategy 'reuse'), so a held email costs the owner nothing: the code they were sent
   * moments ago is the one to type. A code not sent yet always goes out (a new code exists only
   * after the last one was used, expired or spent its tries); a code sent already goes out again
   * no sooner than `resendSeconds` after the last email and at most `resendsPerDay` times a day.
   */
  async codeEmail(email: string, code: string): Promise<CodeEmailDecision> {
    const emailKey = hashed(normalizeEmail(email));
    const codeKey = createHmac('sha256', this.settings.secret)
      .update(`${normalizeEmail(email)}\n${code}`)
      .digest('base64url');
    const sentKey = `signin-mail:sent:${codeKey}`;
    const alreadySent = (await this.counters.peek(sentKey)).hits > 0;
    const spacing = await this.counters.hit(`signin-mail:spacing:${emailKey}`, this.settings.resendSeconds * 1000);
    if (alreadySent) {
      if (spacing.hits > 1) return 'hold';
      if ((await this.counters.hit(`signin-mail:resends:${emailKey}`, DAY_MS)).hits > this.settings.resendsPerDay) return 'hold';
    }
    await this.counters.hit(sentKey, HOUR_MS);
    return 'send';
  }

  /**
   * A code tried by the client at `ip` (for `email`, when the endpoint names one).
   * @throws AppError RATE_LIMITED (429)
   */
  async guess(ip: string, email?: string): Promise<void> {
    await this.count(`signin-guess:ip:${ip}`, this.settings.guessesPerIp, HOUR_MS);
    if (email !== undefined)
      await this.count(`signin-guess:email:${hashed(normalizeEmail(email))}`, this.settings.guessesPerEmailPerMinute, MINUTE_MS);
  }
}
