import { describe, expect, it } from 'vitest';
import { MIN_UNPREDICTABLE_CHARACTERS, unpredictableCharacters, weakSecretProblem } from './secret-strength';

/** Published development values of the kind the apps pass (the server's and the gateway's defaults). */
const PUBLISHED = [
  'roots-dev-app-secret-not-for-production-use',
  'sk_test_roots_sandbox_dev_merchant_secret',
  Buffer.from('roots-sandbox-dev-vault-key-32b!').toString('base64'),
];
const problemOf = (value: string) => weakSecretProblem('APP_SECRET', value, PUBLISHED);

/** Output of `openssl rand` (base64, hex, base64url) and a 32-byte key in base64, as operators generate them. */
const GENERATED = [
  'uC9NQFvz5W6P5Roqm24wq6kYjFFi8z9QiUbGadazQexx',
  '758e1baa519cf6e34ea487f54e7e8932',
  'EWa0kDT8ZkUqwQHzqNPZLUGugl3nVZNr',
  'iDlGybXnTDYBkQFXVLq9zy9jQj5aqZLgXIad/slao0cS',
  '7c61720edfbc3e51452019711de563fa',
  'hO5Y-fHpiomfEMpx2X2vWX2vODfWBEoK',
  'sk_live_5Tq8Wm2Xr7Ky4Bn9Pd3Hf6Jc1Lv0Gz',
];

/** Issue 32: production judged secrets by an exact-match list, so near-variants of published values passed. */
describe('production secrets are judged by strength', () => {
  it('accepts generated secrets', () => {
    for (const value of GENERATED) expect(problemOf(value), value).toBeUndefined();
  });

  it('refuses a published value and anything derived from it: a suffix, another case or separators, one character changed', () => {
    for (const value of [
      'roots-dev-app-secret-not-for-production-use',
      'roots-dev-app-secret-not-for-production-use-2',
      'roots-dev-app-secret-not-for-production-use7c61720edfbc3e51452019711de563fa',
      'ROOTS_DEV_APP_SECRET_NOT_FOR_PRODUCTION_USE',
      'roots-dev-app-secret-not-for-producti0n-use',
      'live_roots_sandbox_dev_merchant_secret_2026',
      // The development vault key with one byte changed still shares most of its base64.
      Buffer.from('roots-sandbox-dev-vault-key-33b!').toString('base64'),
      'change-me-to-32-or-more-random-characters!',
    ]) {
      expect(problemOf(value), value).toMatch(/^APP_SECRET: is a value published in the repository .* or is derived from one/);
    }
  });

  it('refuses a short secret, naming its length', () => {
    expect(problemOf('Zq8Wm2Xr7Ky4Bn9Pd3Hf6Jc1L')).toMatch(/^APP_SECRET: is 25 characters, at least 32 are needed/);
  });

  it('refuses sequences, keyboard rows and repetitions however long', () => {
    for (const value of [
      'abcdefghijklmnopqrstuvwxyz012345',
      'ZYXWVUTSRQPONMLKJIHGFEDCBA987654',
      'qwertyuiopasdfghjklzxcvbnm123456',
      'Password1Password1Password1Passw',
      'sk_live_0123456789abcdef0123456789',
    ]) {
      expect(problemOf(value), value).toMatch(/^APP_SECRET: (is mostly a sequence, a keyboard row or a repetition|repeats a character)/);
    }
    for (const value of ['a'.repeat(40), 'ab'.repeat(20), '0123456789abcdef'.repeat(3)]) {
      expect(problemOf(value), value).toMatch(/^APP_SECRET: repeats a character or a short pattern/);
    }
  });

  it('counts what an attacker guessing in order cannot predict', () => {
    expect(unpredictableCharacters('abcdefghijklmnopqrstuvwxyz012345')).toBe(2);
    expect(unpredictableCharacters('qwertyuiop')).toBe(1);
    // A stretch seen before costs one character.
    expect(unpredictableCharacters('k9Tm2xk9Tm2x')).toBe(7);
    for (const value of GENERATED) expect(unpredictableCharacters(value), value).toBeGreaterThanOrEqual(MIN_UNPREDICTABLE_CHARACTERS);
  });
});
