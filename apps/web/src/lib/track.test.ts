import { afterEach, describe, expect, it, vi } from 'vitest';
import { initTracking, track, trackingEnabled, trackPurchase, TRACKING_WAIT_AFTER_PURCHASE_MS } from './track';

const at = (search: string) => ({ search, host: 'roots.example' }) as Location;

describe('tracking switch', () => {
  afterEach(() => {
    sessionStorage.clear();
    vi.unstubAllGlobals();
  });

  it('is off when the deployment does not track, whatever the URL says (TRACKING_ENABLED=false)', () => {
    const fetchSpy = vi.fn(() => Promise.resolve(new Response(null, { status: 201 })));
    vi.stubGlobal('fetch', fetchSpy);
    initTracking(false, at('?wmq=1'), '');
    expect(trackingEnabled()).toBe(false);
    track('roots', 'intro');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('is on only with TRACKING_ENABLED and wmq=1 on the visit', () => {
    initTracking(true, at(''), '');
    expect(trackingEnabled()).toBe(false);
    initTracking(true, at('?wmq=1'), '');
    expect(trackingEnabled()).toBe(true);
  });

  it('stays on for the page after finalize clears session storage, and on a later load of the visit', () => {
    initTracking(true, at('?wmq=1'), '');
    sessionStorage.clear();
    expect(trackingEnabled()).toBe(true);
    // A later load of a tracked visit without wmq=1 in its URL: the session flag says so.
    sessionStorage.setItem('__wmq', '1');
    initTracking(true, at(''), '');
    expect(trackingEnabled()).toBe(true);
    sessionStorage.clear();
    initTracking(true, at(''), '');
    expect(trackingEnabled()).toBe(false);
  });
});

describe('what tracking keeps and waits for (product-spec §4, §9)', () => {
  afterEach(() => {
    sessionStorage.clear();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('keeps a referrer from another host under `_ref`, and not one of its own host', () => {
    initTracking(true, at(''), 'https://news.example/story');
    expect(sessionStorage.getItem('_ref')).toBe('https://news.example/story');
    sessionStorage.clear();
    initTracking(true, at(''), 'https://roots.example/roots/');
    expect(sessionStorage.getItem('_ref')).toBeNull();
  });

  it('after a purchase waits 1500 ms when tracking is on, and not at all when it is off', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 201 })),
    );
    // The lazy tracking module is loaded first: the module loader needs the real clock.
    await import('./tracking');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    initTracking(true, at('?wmq=1'), '');
    let done = false;
    const waiting = trackPurchase('roots', '0b6a1f3e-4c2d-4e8f-9a7b-1c2d3e4f5a6b').then(() => (done = true));
    await vi.advanceTimersByTimeAsync(1_499);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
    expect(TRACKING_WAIT_AFTER_PURCHASE_MS).toBe(1_500);

    sessionStorage.clear();
    initTracking(false, at(''), '');
    let untracked = false;
    void trackPurchase('roots', '0b6a1f3e-4c2d-4e8f-9a7b-1c2d3e4f5a6b').then(() => (untracked = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(untracked).toBe(true);
  });
});
