import { afterEach, describe, expect, it, vi } from 'vitest';
import { preloadImages } from './preload-images';

class ImageThatLoadsUnlessBroken {
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  set src(url: string) {
    queueMicrotask(() => (url.includes('broken') ? this.onerror?.() : this.onload?.()));
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('preloadImages', () => {
  it('loads every image and only logs a failure', async () => {
    vi.stubGlobal('Image', ImageThatLoadsUnlessBroken);
    const warn = vi.fn();
    await expect(preloadImages(['images/a.svg', 'images/broken.svg', 'images/c.svg'], { warn })).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('[roots] image preload failed: images/broken.svg');
  });
});
