/**
 * Production's refusal of weak secrets (issue 22), shared by the product server and the gateway:
 * a secret published in the repository (a development default or an example value), one with
 * little variety (a repeated character or pattern), or the same value reused for two purposes.
 */

/** Fewer distinct characters than this is not a random secret (32 random base64 characters have ~25). */
const MIN_DISTINCT_CHARACTERS = 10;
/** Placeholders of `.env.example` and the READMEs that someone may copy as they are. */
const EXAMPLE_VALUES = ['change-me-to-32-or-more-random-characters'];

/**
 * Why the secret `name` is weak, as a start-up problem naming the variable; undefined when it is fine.
 * @example weakSecretProblem('APP_SECRET', 'x'.repeat(40), []) // 'APP_SECRET: ... repeats ...'
 */
export function weakSecretProblem(name: string, value: string, published: readonly string[]): string | undefined {
  if ([...published, ...EXAMPLE_VALUES].includes(value)) {
    return `${name}: is a value published in the repository (a development default or an example); set a random secret when NODE_ENV=production`;
  }
  if (/^(.{1,16}?)\1+$/s.test(value) || new Set(value).size < MIN_DISTINCT_CHARACTERS) {
    return `${name}: repeats a character or a short pattern; set a random secret (e.g. \`openssl rand -base64 48\`) when NODE_ENV=production`;
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
