import { afterEach, describe, expect, it, vi } from 'vitest';
import { initTracking, track, trackingEnabled } from './track';

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
