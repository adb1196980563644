import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { rowsOf } from '../modules/emails/emails.repository';
import type { Clock } from './clock';

/** Hits between two sweeps of ended windows, per instance. */
const SWEEP_EVERY_HITS = 1_000;
/** Ended windows kept this long before a sweep deletes them (their rows are reused meanwhile). */
const SWEEP_GRACE_MS = 60_000;

/**
 * Fixed-window counters in the product's database (table `rate_limit_hits`), so every instance
 * counts the same hits (ADR 116). One statement per hit: an upsert that starts a new window when the
 * stored one has ended and otherwise adds one; it is atomic on PostgreSQL (row lock of the
 * conflicting key) and on PGlite (one connection).
 *
 * @example
 * const counters = new SharedRateLimitCounters(db, systemClock);
 * const { hits, resetInMs } = await counters.hit('email:abc', 3_600_000);
 */
export class SharedRateLimitCounters {
  private hitsSinceSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Counts one hit on `key` in its current `windowMs` window; answers the count so far and when the window ends. */
  async hit(key: string, windowMs: number): Promise<{ hits: number; resetInMs: number }> {
    const now = this.clock.now();
    const ends = new Date(now.getTime() + windowMs);
    const result = await this.db.execute(sql`
      insert into rate_limit_hits (key, hits, window_ends_at) values (${key}, 1, ${ends.toISOString()})
      on conflict (key) do update set
        hits = case when rate_limit_hits.window_ends_at <= ${now.toISOString()} then 1 else rate_limit_hits.hits + 1 end,
        window_ends_at = case when rate_limit_hits.window_ends_at <= ${now.toISOString()} then excluded.window_ends_at
                              else rate_limit_hits.window_ends_at end
      returning hits, window_ends_at`);
    const [row] = rowsOf<{ hits: number; window_ends_at: string | Date }>(result);
    if (!row) throw new Error('rate limit upsert returned no row');
    this.hitsSinceSweep += 1;
    if (this.hitsSinceSweep >= SWEEP_EVERY_HITS) {
      this.hitsSinceSweep = 0;
      void this.sweep().catch(() => undefined); // best effort: a failed sweep only leaves dead rows for the next one
    }
    return { hits: Number(row.hits), resetInMs: Math.max(0, new Date(row.window_ends_at).getTime() - now.getTime()) };
  }

  /** The hits of `key` in its current window without counting one (0: none, or the window ended). */
  async peek(key: string): Promise<{ hits: number; resetInMs: number }> {
    const now = this.clock.now();
    const [row] = rowsOf<{ hits: number; window_ends_at: string | Date }>(
      await this.db.execute(
        sql`select hits, window_ends_at from rate_limit_hits where key = ${key} and window_ends_at > ${now.toISOString()}`,
      ),
    );
    if (!row) return { hits: 0, resetInMs: 0 };
    return { hits: Number(row.hits), resetInMs: Math.max(0, new Date(row.window_ends_at).getTime() - now.getTime()) };
  }

  /** Forgets the hits of `key` (its next hit starts a new window). */
  async reset(key: string): Promise<void> {
    await this.db.execute(sql`delete from rate_limit_hits where key = ${key}`);
  }

  /** Deletes windows that ended a while ago; returns how many. */
  async sweep(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - SWEEP_GRACE_MS).toISOString();
    return rowsOf(await this.db.execute(sql`delete from rate_limit_hits where window_ends_at < ${before} returning key`)).length;
  }
}

/**
 * The `store` of `@fastify/rate-limit` on {@link SharedRateLimitCounters}: the global per-IP limit
 * counts under `ip:{address}`, a route with its own limit (face check) under `ip:{METHOD}{url}:{address}`.
 */
export function sharedRateLimitStore(counters: SharedRateLimitCounters): FastifyRateLimitStoreCtor {
  class SharedRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = 'ip:',
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      counters.hit(`${this.prefix}${key}`, timeWindow).then(
        ({ hits, resetInMs }) => callback(null, { current: hits, ttl: resetInMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: { method: string | string[]; url: string }): FastifyRateLimitStore {
      const method = Array.isArray(routeOptions.method) ? routeOptions.method.join(',') : routeOptions.method;
      return new SharedRateLimitStore(routeOptions, `ip:${method}${routeOptions.url}:`);
    }
  }
  return SharedRateLimitStore;
}
