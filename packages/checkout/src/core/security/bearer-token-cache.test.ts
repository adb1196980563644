import { describe, expect, it, vi } from 'vitest';
import { BearerTokenCache, isBearerTokenValid, tokenExpirySeconds } from './bearer-token-cache';

const jwt = (exp: number) => `h.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.s`;
const NOW = 1_800_000_000_000;

describe('bearer token validity', () => {
  it('reads exp and compares with now', () => {
    expect(tokenExpirySeconds(jwt(5))).toBe(5);
    expect(tokenExpirySeconds('garbage')).toBeUndefined();
    expect(tokenExpirySeconds('a.!!!.c')).toBeUndefined();
    expect(isBearerTokenValid(jwt(NOW / 1000 + 60), NOW)).toBe(true);
    expect(isBearerTokenValid(jwt(NOW / 1000 - 1), NOW)).toBe(false);
    expect(isBearerTokenValid(42, NOW)).toBe(false);
  });
});

describe('BearerTokenCache', () => {
  it('reuses an unexpired token and fetches again once expired', async () => {
    let now = NOW;
    const getBearerToken = vi.fn(() => jwt(now / 1000 + 60));
    const cache = new BearerTokenCache({ getBearerToken, logError: vi.fn(), now: () => now });
    const first = await cache.get();
    expect(await cache.get()).toBe(first);
    expect(getBearerToken).toHaveBeenCalledTimes(1);
    now += 61_000;
    await cache.get();
    expect(getBearerToken).toHaveBeenCalledTimes(2);
  });

  it('shares one pending callback between concurrent callers and uses a seeded token', async () => {
    const getBearerToken = vi.fn(async () => jwt(NOW / 1000 + 60));
    const cache = new BearerTokenCache({ getBearerToken, logError: vi.fn(), now: () => NOW });
    await Promise.all([cache.get(), cache.get()]);
    expect(getBearerToken).toHaveBeenCalledTimes(1);
    const seeded = new BearerTokenCache({ getBearerToken, logError: vi.fn(), now: () => NOW });
    seeded.seed(jwt(NOW / 1000 + 5));
    await seeded.get();
    expect(getBearerToken).toHaveBeenCalledTimes(1);
  });

  it('rejects an expired token from the callback with INVALID_BEARER_TOKEN', async () => {
    const cache = new BearerTokenCache({ getBearerToken: () => jwt(1), logError: vi.fn(), now: () => NOW });
    await expect(cache.get()).rejects.toMatchObject({ code: 'INVALID_BEARER_TOKEN' });
  });

  it('a refresh for a token already replaced answers the newer one without asking again', async () => {
    const tokens = [jwt(NOW / 1000 + 60), jwt(NOW / 1000 + 120)];
    const getBearerToken = vi.fn(() => tokens[getBearerToken.mock.calls.length - 1]);
    const cache = new BearerTokenCache({ getBearerToken, logError: vi.fn(), now: () => NOW });
    cache.seed(jwt(NOW / 1000 + 30));
    const stale = await cache.get();
    const [first, second] = await Promise.all([cache.refresh(stale), cache.refresh(stale)]);
    expect(first).toBe(tokens[0]);
    expect(second).toBe(tokens[0]);
    expect(getBearerToken).toHaveBeenCalledTimes(1);
    expect(await cache.refresh(stale)).toBe(tokens[0]);
    expect(await cache.refresh(tokens[0])).toBe(tokens[1]);
  });

  it('logs SESSION_REFRESH_FAILED when the refresh returns nothing or throws', async () => {
    const logError = vi.fn();
    const empty = new BearerTokenCache({ getBearerToken: () => undefined, logError, now: () => NOW });
    expect(await empty.refresh()).toBeUndefined();
    const throwing = new BearerTokenCache({ getBearerToken: () => Promise.reject(new Error('down')), logError, now: () => NOW });
    expect(await throwing.refresh()).toBeUndefined();
    expect(logError).toHaveBeenCalledTimes(2);
    expect(logError.mock.calls[0]?.[0]).toMatchObject({ code: 'SESSION_REFRESH_FAILED' });
  });
});
