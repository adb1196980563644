/**
 * Production's refusal of weak secrets (issues 22 and 32), shared by the product server and the
 * gateway. A secret is judged by its strength, not against a list of exact values: it must be long,
 * varied and unpredictable, and must not be derived from a value published in the repository (a
 * development default or an example). The same value may not serve two purposes. ADR 171 says why
 * these rules and not a password-strength estimator.
 */

/** 32 characters: 128 bits of base64 or hex randomness is ~22–32 characters, so every good generator reaches it. */
export const MIN_SECRET_LENGTH = 32;
/** Fewer distinct characters than this is not a random secret (32 random hex characters have ~14, base64 ~25). */
const MIN_DISTINCT_CHARACTERS = 8;
/**
 * Characters not predictable from what came before (see {@link unpredictableCharacters}) a secret
 * needs. 32 random hex characters have ~26 on average and none of 10^5 drawn had fewer than 15.
 */
export const MIN_UNPREDICTABLE_CHARACTERS = 14;
/** A run of this many characters shared with a published value (letters and digits, any case) is derived from it. */
const DERIVED_RUN = 10;
/** Placeholders of `.env.example` and the READMEs that someone may copy as they are. */
const EXAMPLE_VALUES = ['change-me-to-32-or-more-random-characters'];
/** Runs people type: the alphabet, the digits and the keyboard rows (each read both ways). */
const RUNS = [
  'abcdefghijklmnopqrstuvwxyz',
  '01234567890',
  '1234567890-=',
  'qwertyuiop[]',
  'asdfghjkl;',
  'zxcvbnm,./',
  'qwertzuiop',
  'azertyuiop',
];
const ADJACENT = new Set(
  RUNS.flatMap((run) => [...run].slice(1).flatMap((character, index) => [`${run[index]}${character}`, `${character}${run[index]}`])),
);

/** Lower-case letters and digits only: separators and case do not make a published value new. */
function normalized(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * How many characters of `value` an attacker guessing it in order could not predict: a character is
 * predictable when it repeats the previous one, is its neighbour in the alphabet, the digits or a
 * keyboard row, or continues a stretch of 4+ characters that already appeared earlier.
 * @example unpredictableCharacters('abcdefghijklmnopqrstuvwxyz012345') // 2
 */
export function unpredictableCharacters(value: string): number {
  const lower = value.toLowerCase();
  let count = 0;
  let index = 0;
  while (index < lower.length) {
    // The longest stretch from here (4 at least) that already appeared before costs one character.
    let repeat = 0;
    while (index + repeat < lower.length && lower.slice(0, index).includes(lower.slice(index, index + repeat + 1))) repeat += 1;
    if (repeat >= 4) {
      count += 1;
      index += repeat;
      continue;
    }
    const previous = lower[index - 1];
    const current = lower[index] ?? '';
    if (previous === undefined || (previous !== current && !ADJACENT.has(`${previous}${current}`))) count += 1;
    index += 1;
  }
  return count;
}

/** Whether `value` shares a run of {@link DERIVED_RUN} letters and digits with a published value. */
function derivedFrom(value: string, published: readonly string[]): boolean {
  const own = normalized(value);
  return published.some((source) => {
    const known = normalized(source);
    if (known.length === 0) return false;
    if (own.includes(known) || known.includes(own)) return true;
    for (let start = 0; start + DERIVED_RUN <= known.length; start += 1) {
      if (own.includes(known.slice(start, start + DERIVED_RUN))) return true;
    }
    return false;
  });
}

/**
 * Why the secret `name` is weak, as a start-up problem naming the variable; undefined when it is fine.
 * @param published the repository's published values (development defaults) the secret must not come from
 * @example weakSecretProblem('APP_SECRET', 'x'.repeat(40), []) // 'APP_SECRET: repeats a character or a short pattern; ...'
 */
export function weakSecretProblem(name: string, value: string, published: readonly string[]): string | undefined {
  const advice = 'set a random secret (e.g. `openssl rand -base64 48`) when NODE_ENV=production';
  if (derivedFrom(value, [...published, ...EXAMPLE_VALUES])) {
    return `${name}: is a value published in the repository (a development default or an example) or is derived from one; ${advice}`;
  }
  if (value.length < MIN_SECRET_LENGTH) {
    return `${name}: is ${value.length} characters, at least ${MIN_SECRET_LENGTH} are needed; ${advice}`;
  }
  if (/^(.{1,16}?)\1+$/s.test(value) || new Set(value).size < MIN_DISTINCT_CHARACTERS) {
    return `${name}: repeats a character or a short pattern; ${advice}`;
  }
  const unpredictable = unpredictableCharacters(value);
  if (unpredictable < MIN_UNPREDICTABLE_CHARACTERS) {
    return `${name}: is mostly a sequence, a keyboard row or a repetition (${unpredictable} unpredictable characters, at least ${MIN_UNPREDICTABLE_CHARACTERS} are needed); ${advice}`;
  }
  return undefined;
}

/** Problems for secrets that share one value: each purpose needs its own (a leak of one must not give the other). */
export function sharedSecretProblems(secrets: Readonly<Record<string, string | undefined>>): string[] {
  const names = Object.keys(secrets).filter((name) => secrets[name] !== undefined);
  const problems: string[] = [];
  for (const [index, name] of names.entries()) {
    for (const other of names.slice(index + 1)) {
      if (secrets[name] === secrets[other]) problems.push(`${name}: must differ from ${other} when NODE_ENV=production`);
    }
  }
  return problems;
}
