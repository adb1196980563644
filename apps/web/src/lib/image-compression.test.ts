import { afterEach, describe, expect, it, vi } from 'vitest';
import { compressFrame, fitWithin } from './image-compression';

afterEach(() => vi.restoreAllMocks());

describe('selfie compression (product-spec §9, checkout-spec §9)', () => {
  it('encodes webp at quality 0.7, drawn at a size that fits 1280 px', async () => {
    const drawn: number[][] = [];
    const context = { translate: vi.fn(), scale: vi.fn(), drawImage: (_source: unknown, ...box: number[]) => drawn.push(box) };
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(context as unknown as CanvasRenderingContext2D);
    const toBlob = vi
      .spyOn(HTMLCanvasElement.prototype, 'toBlob')
      .mockImplementation((done: BlobCallback) => done(new Blob(['x'], { type: 'image/webp' })));

    const result = await compressFrame(document.createElement('canvas'), 2560, 1920);

    expect(toBlob).toHaveBeenCalledWith(expect.any(Function), 'image/webp', 0.7);
    expect(result).toMatchObject({ width: 1280, height: 960 });
    expect(drawn).toEqual([[0, 0, 1280, 960]]);
    expect(context.scale).not.toHaveBeenCalled();
  });

  it('mirrors a front camera frame, and keeps a small photo at its size', async () => {
    const context = { translate: vi.fn(), scale: vi.fn(), drawImage: vi.fn() };
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(context as unknown as CanvasRenderingContext2D);
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((done: BlobCallback) => done(new Blob(['x'])));
    await compressFrame(document.createElement('canvas'), 640, 480, { mirror: true });
    expect(context.translate).toHaveBeenCalledWith(640, 0);
    expect(context.scale).toHaveBeenCalledWith(-1, 1);
    expect(fitWithin(640, 480)).toEqual({ width: 640, height: 480 });
  });
});
