import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, envSchema, loadConfig } from './env';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('server configuration', () => {
  it('starts on embedded defaults', () => {
    const config = loadConfig({});
    expect(config.PRODUCT_SLUG).toBe('roots');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATA_DIR).toBe('./data');
    expect(config.PORT).toBe(3000);
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.catalog.plans).toHaveLength(9);
    expect(config.copy.discountClaim).toBe('Get 85% Discount Today');
  });

  it('names DATABASE_URL when it is malformed', () => {
    expect(problemsOf({ DATABASE_URL: 'not a url' })).toEqual([expect.stringMatching(/^DATABASE_URL: /)]);
    expect(problemsOf({ DATABASE_URL: 'mysql://u@localhost/db' })[0]).toMatch(/^DATABASE_URL: must be a postgres/);
  });

  it('names PLAN_OVERRIDES when it names an unknown plan or is not JSON', () => {
    expect(problemsOf({ PLAN_OVERRIDES: '{"roots_999_otp":{"sum":1}}' })).toEqual([
      expect.stringContaining("PLAN_OVERRIDES: unknown plan id 'roots_999_otp'"),
    ]);
    expect(problemsOf({ PLAN_OVERRIDES: '{oops' })[0]).toMatch(/^PLAN_OVERRIDES: is not valid JSON/);
    expect(problemsOf({ PLAN_OVERRIDES: '{"roots_3d1_7d2499":{"sum":-1}}' })[0]).toMatch(/^PLAN_OVERRIDES\.roots_3d1_7d2499\.sum/);
  });

  it('rejects a slug that cannot be a URL segment and a bad port, reporting both', () => {
    const problems = problemsOf({ PRODUCT_SLUG: 'Roots App', PORT: 'eighty' });
    expect(problems.some((p) => p.startsWith('PRODUCT_SLUG:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('PORT:'))).toBe(true);
  });

  it('applies plan overrides for another slug', () => {
    const config = loadConfig({ PRODUCT_SLUG: 'kin', PLAN_OVERRIDES: '{"kin_3d5_7d2499":{"trial_sum":4}}' });
    expect(config.catalog.plans.find((p) => p.id === 'kin_3d5_7d2499')?.trial_sum).toBe(4);
  });

  it('is documented variable by variable in .env.example', () => {
    const example = readFileSync(new URL('../../../../.env.example', import.meta.url), 'utf8');
    const documented = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    for (const key of Object.keys(envSchema.shape)) expect(documented, key).toContain(key);
  });
});
