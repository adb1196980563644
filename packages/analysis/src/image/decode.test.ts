import { MAX_SELFIE_BYTES } from '@roots/contracts/face-check';
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES } from './decode.js';

describe('decodeImage limits', () => {
  // The built engine cannot import the contracts' TypeScript source at run time, so it keeps its own copy.
  it('accepts photos up to the contract size limit, as the server does', () => {
    expect(MAX_INPUT_BYTES).toBe(MAX_SELFIE_BYTES);
  });
});
