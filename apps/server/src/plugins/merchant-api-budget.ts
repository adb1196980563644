import { createHmac, randomUUID } from 'node:crypto';
import { API_MESSAGES, formatMessage } from '@roots/contracts';
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors';
import type { Clock } from '../lib/clock';
import type { SharedRateLimitCounters } from '../lib/shared-rate-limit';
import { signToken, verifyToken } from '../lib/signed-token';

/**
 * Which budget a public route that reaches the gateway's merchant API spends, once it has validated
 * and authenticated its request (issue 32, ADR 160):
 * - `checkout`: anonymous calls that open or keep a checkout (`/init/session`, its token refresh,
 *   Apple Pay merchant validation): per client, an open share, and a reserve for checkout passes;
 * - `execution`: a purchase or status read of an execution this server opened a checkout for: per
 *   client and per execution, never a share of all clients;
 * - `owner`: a cancel's refund, a card update (open and complete) of a subscription whose owner
 *   proved it: per subscription only.
 * The map says which routes spend (the test of ADR 160 reads it); the routes call the budget at the
 * point where nothing but the gateway can refuse them any more.
 */
export const MERCHANT_API_ROUTES: Readonly<Record<string, 'checkout' | 'execution' | 'owner'>> = {
  'GET /init/session': 'checkout',
  'POST /init/session': 'checkout',
  'POST /init/session/token': 'checkout',
  'POST /api/apple-pay/validate-merchant': 'checkout',
  'POST /subs/create-no-user': 'execution',
  'POST /subs/create-no-user-applepay': 'execution',
  'POST /subs/create': 'execution',
  'POST /subs/create-applepay': 'execution',
  'POST /subs/payment-status': 'execution',
  'POST /api/cancel': 'owner',
  'POST /api/cancel-subscription/:content': 'owner',
  'POST /api/account/subscriptions/:id/cancel': 'owner',
  'POST /api/account/subscriptions/:id/update-card': 'owner',
  'POST /api/update-card/:content': 'owner',
  'POST /api/account/subscriptions/:id/update-card/complete': 'owner',
  'POST /api/update-card/:content/complete': 'owner',
};

export type MerchantApiBudgetSettings = {
  /** Checkout calls one client address may make per minute (with or without a pass). */
  perClientCheckouts: number;
  /** Checkout calls per minute of every client together without a checkout pass; past it, a challenge. */
  openCheckouts: number;
  /** Checkout calls per minute of every client together with a checkout pass. */
  reserveCheckouts: number;
  /** Purchase and status reads one client address may make per minute. */
  perClientExecutionReads: number;
};

/** The header a browser sends a solved challenge in (its ALTCHA payload, base64 JSON). */
export const CHECKOUT_PROOF_HEADER = 'x-checkout-proof';
/** The cookie a solved challenge buys: a checkout pass. */
export const CHECKOUT_PASS_COOKIE = 'roots_checkout_pass';

const MINUTE_MS = 60_000;
/** Gateway calls one execution or one subscription may cause a minute (a pending page's "check again", a retry). */
export const PER_SUBJECT_PER_MINUTE = 10;
/** What one checkout pass buys: a checkout's calls (its session, a token refresh, Apple Pay's validation), for 15 minutes. */
export const PASS_USES = 3;
const PASS_TTL_MS = 15 * MINUTE_MS;
/** Checkout passes one client address may buy a minute, whatever work it does. */
export const PASSES_PER_CLIENT_PER_MINUTE = 1;
/** A challenge must be solved within this time. */
const CHALLENGE_TTL_MS = 5 * MINUTE_MS;
/**
 * The work of one challenge: PBKDF2-SHA-256 at {@link CHALLENGE_COST} iterations per try, the answer
 * drawn among the first {@link CHALLENGE_COUNTER} tries (~600 000 iterations on average: about half a
 * second in a phone's browser, ADR 160).
 */
const CHALLENGE_ALGORITHM = 'PBKDF2/SHA-256';
const CHALLENGE_COST = 2_000;
const CHALLENGE_COUNTER: readonly [number, number] = [200, 400];

const payloadSchema = z.object({
  challenge: z.object({
    parameters: z.object({
      algorithm: z.literal(CHALLENGE_ALGORITHM),
      nonce: z.string().max(128),
      salt: z.string().max(128),
      cost: z.number().int().positive(),
      keyLength: z.number().int().positive().max(64),
      keyPrefix: z.string().max(128),
      keySignature: z.string().max(256).optional(),
      expiresAt: z.number().optional(),
    }),
    signature: z.string().min(1).max(256),
  }),
  solution: z.object({ counter: z.number().int().nonnegative(), derivedKey: z.string().max(256), time: z.number().optional() }),
});

/** The 429 that asks for a solved challenge; the body carries it (`challenge`) besides `{ error, code }`. */
export class ChallengeRequired extends AppError {
  constructor(readonly challenge: Challenge) {
    super('CHALLENGE_REQUIRED', API_MESSAGES.checkoutChallenge);
  }
}

/**
 * The budgets of the gateway's merchant quota that public requests spend (issue 32, ADR 160;
 * amends ADR 137), counted in the shared `rate_limit_hits` table so N instances spend one budget.
 * Nothing is counted before the request is valid and its caller proven: the routes call a method
 * here where only the gateway can refuse them any more.
 */
export class MerchantApiBudget {
  private readonly challengeSecret: string;
  private readonly challengeKeySecret: string;
  private readonly passSecret: string;

  constructor(
    private readonly options: {
      settings: MerchantApiBudgetSettings;
      counters: SharedRateLimitCounters;
      clock: Clock;
      secret: string;
      secureCookies: boolean;
    },
  ) {
    const derive = (purpose: string) => createHmac('sha256', options.secret).update(purpose).digest('base64url');
    this.challengeSecret = derive('checkout-challenge');
    this.challengeKeySecret = derive('checkout-challenge-key');
    this.passSecret = derive('checkout-pass');
  }

  /**
   * A checkout call (anonymous): the client's own budget first; then a checkout pass's use from the
   * reserve, or the open share. With the open share spent, a caller without a pass is asked for a
   * solved challenge (429 CHALLENGE_REQUIRED); its solution, sent again with the request, buys a pass.
   * @throws AppError RATE_LIMITED past the client's budget or with the reserve spent; ChallengeRequired.
   */
  async checkout(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { counters, settings } = this.options;
    const client = await counters.hit(`merchant:client:${request.ip}`, MINUTE_MS);
    if (client.hits > settings.perClientCheckouts) throw this.tooMany(client.resetInMs);
    const pass = (await this.passFromProof(request, reply)) ?? this.passFromCookie(request);
    if (pass !== undefined && (await counters.hit(`checkout-pass:${pass}`, PASS_TTL_MS)).hits <= PASS_USES) {
      if ((await counters.hit('merchant:checkout:reserve', MINUTE_MS)).hits <= settings.reserveCheckouts) return;
      if ((await counters.hit('merchant:checkout:open', MINUTE_MS)).hits <= settings.openCheckouts) return;
      throw new AppError('RATE_LIMITED', API_MESSAGES.tooManyCheckouts);
    }
    if ((await counters.hit('merchant:checkout:open', MINUTE_MS)).hits <= settings.openCheckouts) return;
    throw new ChallengeRequired(await this.challenge());
  }

  /**
   * A read of an execution this server opened a checkout for (a purchase, its status): the client's
   * own budget and the execution's; no share of all clients, so a paid shopper is never refused for
   * someone else's traffic.
   */
  async execution(request: FastifyRequest, executionId: string): Promise<void> {
    const { counters, settings } = this.options;
    const client = await counters.hit(`merchant:reads:${request.ip}`, MINUTE_MS);
    if (client.hits > settings.perClientExecutionReads) throw this.tooMany(client.resetInMs);
    const subject = await counters.hit(`merchant:execution:${executionId}`, MINUTE_MS);
    if (subject.hits > PER_SUBJECT_PER_MINUTE) throw this.tooMany(subject.resetInMs);
  }

  /** A gateway call for a subscription whose owner proved it (a refund, a card update): that subscription's budget only. */
  async owner(subscriptionId: string): Promise<void> {
    const subject = await this.options.counters.hit(`merchant:subscription:${subscriptionId.toLowerCase()}`, MINUTE_MS);
    if (subject.hits > PER_SUBJECT_PER_MINUTE) throw this.tooMany(subject.resetInMs);
  }

  /** A fresh challenge, signed so that its solution is checked without storing it. */
  async challenge(): Promise<Challenge> {
    return createChallenge({
      algorithm: CHALLENGE_ALGORITHM,
      cost: CHALLENGE_COST,
      counter: randomInt(CHALLENGE_COUNTER[0], CHALLENGE_COUNTER[1]),
      deriveKey,
      expiresAt: new Date(this.options.clock.now().getTime() + CHALLENGE_TTL_MS),
      hmacSignatureSecret: this.challengeSecret,
      hmacKeySignatureSecret: this.challengeKeySecret,
    });
  }

  private tooMany(resetInMs: number): AppError {
    const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
    return new AppError('RATE_LIMITED', formatMessage(API_MESSAGES.tooManyRequests, { after: `${seconds} seconds` }));
  }

  /**
   * The pass a solved challenge in the request buys: verified (signature, expiry, the work), used
   * once, at most {@link PASSES_PER_CLIENT_PER_MINUTE} a minute per client; set as the pass cookie.
   * A bad or replayed proof buys nothing (the request goes on as one without a pass).
   */
  private async passFromProof(request: FastifyRequest, reply: FastifyReply): Promise<string | undefined> {
    const header = request.headers[CHECKOUT_PROOF_HEADER];
    if (typeof header !== 'string' || header.length > 4_096) return undefined;
    let parsed: z.infer<typeof payloadSchema>;
    try {
      parsed = payloadSchema.parse(JSON.parse(Buffer.from(header, 'base64').toString('utf8')));
    } catch {
      return undefined;
    }
    const { challenge, solution } = parsed;
    const expiresAt = challenge.parameters.expiresAt;
    if (expiresAt === undefined || expiresAt * 1000 < this.options.clock.now().getTime()) return undefined;
    const result = await verifySolution({
      challenge: challenge as Challenge,
      solution: solution as Solution,
      deriveKey,
      hmacSignatureSecret: this.challengeSecret,
      hmacKeySignatureSecret: this.challengeKeySecret,
    });
    if (!result.verified) return undefined;
    const { counters } = this.options;
    if ((await counters.hit(`checkout-proof:${challenge.signature}`, CHALLENGE_TTL_MS)).hits > 1) return undefined;
    if ((await counters.hit(`checkout-pass:client:${request.ip}`, MINUTE_MS)).hits > PASSES_PER_CLIENT_PER_MINUTE) return undefined;
    const id = randomUUID();
    const until = this.options.clock.now().getTime() + PASS_TTL_MS;
    void reply.setCookie(CHECKOUT_PASS_COOKIE, signToken(this.passSecret, 'checkout-pass', `${id}.${until}`), {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.options.secureCookies,
      maxAge: PASS_TTL_MS / 1000,
    });
    return id;
  }

  private passFromCookie(request: FastifyRequest): string | undefined {
    const raw = request.cookies[CHECKOUT_PASS_COOKIE];
    const value = raw ? verifyToken(this.passSecret, 'checkout-pass', raw) : undefined;
    const [id, until] = value?.split('.') ?? [];
    if (!id || !until || Number(until) < this.options.clock.now().getTime()) return undefined;
    return id;
  }
}
