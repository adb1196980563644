import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_SERVER_SECRETS, envSchema, loadConfig } from './env';

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

  it('names the sign-in and authenticator limits when they are out of range (ADR 167, 168)', () => {
    const problems = problemsOf({
      SIGN_IN_CODES_PER_IP_PER_HOUR: '0',
      SIGN_IN_CODE_RESEND_SECONDS: '-1',
      SIGN_IN_CODE_RESENDS_PER_DAY: 'many',
      SIGN_IN_GUESSES_PER_EMAIL_PER_MINUTE: '0',
      OPERATOR_TOTP_MAX_FAILURES: '0',
      OPERATOR_TOTP_LOCK_MINUTES: '2000',
    }).map((problem) => problem.split(':')[0]);
    expect(problems.sort()).toEqual([
      'OPERATOR_TOTP_LOCK_MINUTES',
      'OPERATOR_TOTP_MAX_FAILURES',
      'SIGN_IN_CODES_PER_IP_PER_HOUR',
      'SIGN_IN_CODE_RESENDS_PER_DAY',
      'SIGN_IN_CODE_RESEND_SECONDS',
      'SIGN_IN_GUESSES_PER_EMAIL_PER_MINUTE',
    ]);
    const defaults = loadConfig({});
    expect([defaults.SIGN_IN_CODES_PER_IP_PER_HOUR, defaults.SIGN_IN_GUESSES_PER_IP_PER_HOUR]).toEqual([100, 300]);
    expect([defaults.OPERATOR_TOTP_MAX_FAILURES, defaults.OPERATOR_TOTP_LOCK_MINUTES]).toEqual([5, 15]);
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

  describe('production refuses silent settings, each by name', () => {
    const production = {
      NODE_ENV: 'production',
      GATEWAY_MERCHANT_SECRET: 'sk_live_5Tq8Wm2Xr7Ky4Bn9Pd3Hf6Jc1Lv0Gz',
      APP_SECRET: 'app_7Hq2Vn9Kx4Lm1Pz8Rt3Ws6Yb0Cd5Fg',
      AUTH_SECRET: 'auth_3Jk8Mn2Qp5Rs9Tv1Wx4Yz7Ab0Ce6Dh',
      SMTP_URL: 'smtp://mail.example:587',
      PUBLIC_URL: 'https://roots.example',
      ANALYSIS_WORKERS: '2',
      LEGAL_OPERATOR_NAME: 'Roots Test Operator Ltd',
      LEGAL_OPERATOR_ADDRESS: '1 Example Street, 10115 Berlin, Germany',
      LEGAL_CONTACT_EMAIL: 'support@roots.example',
    };
    const without = (name: keyof typeof production) => Object.fromEntries(Object.entries(production).filter(([key]) => key !== name));

    it('starts when every one is set', () => {
      expect(loadConfig(production).publicUrl).toBe('https://roots.example');
    });

    it('without SMTP_URL (emails would be stored and never sent)', () => {
      expect(problemsOf(without('SMTP_URL'))).toEqual([expect.stringMatching(/^SMTP_URL: required when NODE_ENV=production/)]);
    });

    it('without PUBLIC_URL, or with a loopback one (links in emails would point at localhost)', () => {
      expect(problemsOf(without('PUBLIC_URL'))).toEqual([expect.stringMatching(/^PUBLIC_URL: required when NODE_ENV=production/)]);
      for (const url of ['http://127.0.0.1:3000', 'http://localhost:3000', 'http://[::1]:3000', 'http://0.0.0.0']) {
        expect(problemsOf({ ...production, PUBLIC_URL: url }), url).toEqual([
          expect.stringMatching(/^PUBLIC_URL: .* is a loopback address/),
        ]);
      }
    });

    it('with a secret published in the repository, a repeated one, or one value for two purposes (issue 22)', () => {
      expect(problemsOf({ ...production, APP_SECRET: DEV_SERVER_SECRETS.APP_SECRET })).toEqual([
        expect.stringMatching(/^APP_SECRET: is a value published in the repository/),
      ]);
      expect(problemsOf({ ...production, AUTH_SECRET: 'change-me-to-32-or-more-random-characters' })).toEqual([
        expect.stringMatching(/^AUTH_SECRET: is a value published in the repository/),
      ]);
      expect(problemsOf({ ...production, GATEWAY_MERCHANT_SECRET: DEV_SERVER_SECRETS.GATEWAY_MERCHANT_SECRET })).toEqual([
        expect.stringMatching(/^GATEWAY_MERCHANT_SECRET: is a value published/),
      ]);
      for (const repeated of ['a'.repeat(40), 'ab'.repeat(20), '0123456789abcdef'.repeat(3), 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabc']) {
        expect(problemsOf({ ...production, APP_SECRET: repeated }), repeated).toEqual([
          expect.stringMatching(/^APP_SECRET: repeats a character or a short pattern/),
        ]);
      }
      // Issue 32: near-variants of published values and sequences are refused too, not only exact values.
      expect(problemsOf({ ...production, APP_SECRET: `${DEV_SERVER_SECRETS.APP_SECRET}-v2` })).toEqual([
        expect.stringMatching(/^APP_SECRET: is a value published in the repository .* or is derived from one/),
      ]);
      expect(problemsOf({ ...production, AUTH_SECRET: 'abcdefghijklmnopqrstuvwxyz012345' })).toEqual([
        expect.stringMatching(/^AUTH_SECRET: is mostly a sequence, a keyboard row or a repetition/),
      ]);
      expect(problemsOf({ ...production, AUTH_SECRET: production.APP_SECRET })).toEqual([
        expect.stringMatching(/^APP_SECRET: must differ from AUTH_SECRET/),
      ]);
    });

    it('without the merchant’s legal name, address and support address (receipts name them)', () => {
      expect(problemsOf(without('LEGAL_CONTACT_EMAIL'))).toEqual([
        expect.stringMatching(/^LEGAL_CONTACT_EMAIL: required when NODE_ENV=production/),
      ]);
    });

    it('with an http PUBLIC_URL (purchase and session cookies would travel in clear)', () => {
      expect(problemsOf({ ...production, PUBLIC_URL: 'http://roots.example' })).toEqual([
        expect.stringMatching(/^PUBLIC_URL: http:\/\/roots\.example is not https/),
      ]);
    });

    it('without ANALYSIS_WORKERS (the default would use every host core)', () => {
      expect(problemsOf(without('ANALYSIS_WORKERS'))).toEqual([
        expect.stringMatching(/^ANALYSIS_WORKERS: required when NODE_ENV=production/),
      ]);
    });

    it('lists every problem at once, and development keeps its defaults', () => {
      expect(problemsOf({ NODE_ENV: 'production' }).map((problem) => problem.split(':')[0])).toEqual([
        'GATEWAY_MERCHANT_SECRET',
        'APP_SECRET',
        'AUTH_SECRET',
        'SMTP_URL',
        'PUBLIC_URL',
        'LEGAL_OPERATOR_NAME',
        'LEGAL_OPERATOR_ADDRESS',
        'LEGAL_CONTACT_EMAIL',
        'ANALYSIS_WORKERS',
      ]);
      expect(loadConfig({}).ANALYSIS_WORKERS).toBeUndefined();
    });
  });
});
