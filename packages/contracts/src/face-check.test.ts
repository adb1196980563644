import { describe, expect, it } from 'vitest';
import { faceBoxFromParam, faceBoxParamSchema, faceBoxSchema, faceBoxToParam, faceCheckQuerySchema } from './face-check';

describe('the chosen face of a group photo on the wire (ADR 192)', () => {
  it('goes as x,y,width,height in a query parameter and comes back the same box', () => {
    const box = { x: 0.408, y: 0.369, width: 0.189, height: 0.252 };
    const param = faceBoxToParam(box);
    expect(param).toBe('0.408,0.369,0.189,0.252');
    expect(faceBoxParamSchema.safeParse(param).success).toBe(true);
    expect(faceBoxFromParam(param)).toEqual(box);
    expect(faceCheckQuerySchema.parse({ face: param })).toEqual({ face: param });
    expect(faceCheckQuerySchema.parse({})).toEqual({});
  });

  it.each([
    ['not four numbers', '0.1,0.2,0.3'],
    ['a negative fraction', '-0.1,0.2,0.3,0.4'],
    ['a fraction over 1', '0.1,0.2,1.3,0.4'],
    ['a box past the right edge', '0.9,0.2,0.3,0.4'],
    ['an empty box', '0.1,0.2,0,0.4'],
    ['text', 'face-two'],
  ])('refuses %s', (_name, param) => {
    expect(faceBoxParamSchema.safeParse(param).success).toBe(false);
  });

  it('refuses a box outside the photo in a JSON body too', () => {
    expect(faceBoxSchema.safeParse({ x: 0.5, y: 0.5, width: 0.6, height: 0.2 }).success).toBe(false);
    expect(faceBoxSchema.safeParse({ x: 0.5, y: 0.5, width: 0.5, height: 0.5 }).success).toBe(true);
  });
});
