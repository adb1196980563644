import { afterEach, describe, expect, it, vi } from 'vitest';
import { initTracking, track, trackingEnabled, trackPurchase, TRACKING_WAIT_AFTER_PURCHASE_MS } from './track';

const at = (search: string, pathname = '/roots/') => ({ search, pathname, host: 'roots.example' }) as Location;

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

describe('the visit every event names (issue 25)', () => {
  afterEach(() => {
    sessionStorage.clear();
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  /** A fresh page load: the modules start over, session storage stays. */
  const load = () => import('./track');
  const bodies = () => {
    const sent: Array<{ event: string; visit?: { id: string; variant: string } }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === '/remote-addr') return new Response(JSON.stringify({ ip: '192.0.2.9', country: 'US' }), { status: 200 });
        sent.push(JSON.parse(String(init?.body)) as (typeof sent)[number]);
        return new Response(JSON.stringify({ ok: true, id: 'x' }), { status: 201 });
      }),
    );
    return sent;
  };

  it('keeps one visit id and the variant it started in through reloads and other URLs', async () => {
    const sent = bodies();
    vi.resetModules();
    const first = await load();
    first.initTracking(true, at('?wmq=1', '/roots/quiz'), '');
    first.track('roots', 'intro');
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    // A reload on the paywall's URL: the same visit, still the quiz variant.
    vi.resetModules();
    const reloaded = await load();
    reloaded.initTracking(true, at('', '/roots/paywall'), '');
    reloaded.track('roots', 'subscription offer');
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[0]!.visit).toMatchObject({ variant: 'quiz' });
    expect(sent[0]!.visit!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]!.visit).toEqual(sent[0]!.visit);
    // A new browser session is a new visit, in the variant it lands in.
    sessionStorage.clear();
    vi.resetModules();
    const other = await load();
    other.initTracking(true, at('?wmq=1', '/roots/'), '');
    other.track('roots', 'intro');
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    expect(sent[2]!.visit).toMatchObject({ variant: 'walkthrough' });
    expect(sent[2]!.visit!.id).not.toBe(sent[0]!.visit!.id);
  });

  it('names no visit when tracking is off', async () => {
    vi.resetModules();
    const untracked = await load();
    untracked.initTracking(true, at('', '/roots/'), '');
    expect(sessionStorage.getItem('__visit')).toBeNull();
  });

  it('reads the variant from the landing path', async () => {
    const { variantOf } = await load();
    expect(variantOf({ pathname: '/roots/quiz' })).toBe('quiz');
    expect(variantOf({ pathname: '/roots/quiz/' })).toBe('quiz');
    expect(variantOf({ pathname: '/roots/' })).toBe('walkthrough');
    expect(variantOf({ pathname: '/roots/paywall' })).toBe('walkthrough');
  });
});
