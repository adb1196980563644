import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { badInputs, faceImage } from '../testing/fixtures.js';
import { decodeImage } from './decode.js';
import { HEADER_WINDOW_BYTES, MAX_INPUT_PIXELS, screenImage } from './screen.js';

const SVG_BOMB = await badInputs.svgBomb();

/** The first bytes of an HEIC photo as an iPhone writes it: an ISO-BMFF `ftyp` box of brand `heic`. */
const HEIC_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'), Buffer.alloc(64)]);

const grey = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#808080' } });

describe('screenImage (ADR 164): only camera formats, sized from the header, nothing decoded', () => {
  it('lets JPEG, PNG and WebP in, with the size their header declares', async () => {
    expect(screenImage(faceImage(0))).toMatchObject({ ok: true, format: 'jpeg', size: { width: expect.any(Number) } });
    expect(screenImage(await grey(300, 200).png().toBuffer())).toEqual({ ok: true, format: 'png', size: { width: 300, height: 200 } });
    expect(screenImage(await grey(300, 200).webp().toBuffer())).toEqual({ ok: true, format: 'webp', size: { width: 300, height: 200 } });
    expect(screenImage(await grey(300, 200).webp({ lossless: true }).toBuffer())).toMatchObject({ ok: true, format: 'webp' });
  });

  it('refuses SVG, PDF, GIF, TIFF, HEIC, AVIF, text and nothing, by their first bytes', async () => {
    const refused = {
      svg: SVG_BOMB,
      svgWithXmlProlog: Buffer.concat([Buffer.from('<?xml version="1.0"?>\n'), SVG_BOMB]),
      pdf: Buffer.from('%PDF-1.4 definitely not a photo '.repeat(8)),
      gif: await grey(64, 64).gif().toBuffer(),
      tiff: await grey(64, 64).tiff().toBuffer(),
      avif: await grey(64, 64).avif().toBuffer(),
      heic: HEIC_HEAD,
      text: Buffer.from('plain text, not a photo'),
      empty: Buffer.alloc(0),
      jpegMagicOnly: Buffer.from([0xff, 0xd8]),
    };
    for (const [name, bytes] of Object.entries(refused)) {
      expect(screenImage(bytes), name).toMatchObject({ ok: false, code: 'UNSUPPORTED_IMAGE_FORMAT' });
    }
  });

  it('refuses a photo whose header declares more than 40 MP, before its pixels exist', async () => {
    expect(MAX_INPUT_PIXELS).toBe(40_000_000);
    const over = await grey(8000, 6000).jpeg().toBuffer();
    expect(screenImage(over)).toEqual({ ok: false, code: 'IMAGE_TOO_LARGE', cause: '8000x6000 pixels' });
    // A PNG header that declares 100 000 × 100 000 with no pixel data behind it: refused, not decoded.
    const lying = await grey(64, 64).png().toBuffer();
    lying.writeUInt32BE(100_000, 16);
    lying.writeUInt32BE(100_000, 20);
    expect(screenImage(lying)).toMatchObject({ ok: false, code: 'IMAGE_TOO_LARGE' });
  });

  it('reads at most the header window of a JPEG crafted with endless segments, and leaves the size to the worker', () => {
    const crafted = Buffer.alloc(4 * 1024 * 1024);
    crafted.set([0xff, 0xd8]);
    for (let at = 2; at + 4 <= crafted.length; at += 4) crafted.set([0xff, 0xe2, 0x00, 0x02], at);
    expect(HEADER_WINDOW_BYTES).toBeLessThanOrEqual(256 * 1024);
    expect(screenImage(crafted)).toEqual({ ok: true, format: 'jpeg' });
  });

  it('finds the frame header behind camera segments, and leaves one beyond the window to the worker’s header read', async () => {
    const over = await grey(8000, 6000).jpeg().toBuffer();
    /** `count` APP15 segments of 64 KB after the start-of-image marker, as EXIF, ICC and XMP segments sit. */
    const behindSegments = (count: number) =>
      Buffer.concat([
        over.subarray(0, 2),
        ...Array.from({ length: count }, () => Buffer.concat([Buffer.from([0xff, 0xef, 0xff, 0xff]), Buffer.alloc(0xfffd)])),
        over.subarray(2),
      ]);
    expect(screenImage(behindSegments(2))).toMatchObject({ ok: false, code: 'IMAGE_TOO_LARGE' });
    const farAway = behindSegments(5);
    expect(screenImage(farAway)).toEqual({ ok: true, format: 'jpeg' });
    expect(await decodeImage(farAway)).toMatchObject({ ok: false, code: 'IMAGE_TOO_LARGE' });
  });

  it('the decoder refuses the same files, and an SVG never reaches libvips', async () => {
    expect(await decodeImage(SVG_BOMB)).toMatchObject({ ok: false, code: 'UNSUPPORTED_IMAGE_FORMAT' });
    expect(await decodeImage(await grey(8000, 6000).jpeg().toBuffer())).toMatchObject({ ok: false, code: 'IMAGE_TOO_LARGE' });
    const decoded = await decodeImage(faceImage(0));
    expect(decoded.ok).toBe(true);
  });
});
