import type { PublicConfig } from '@roots/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../../app';
import { loadConfig } from '../../config/env';
import type { Database } from '../../db/database';
import { buildTestApp, openTestDatabase } from '../../test/helpers';
import { buildPublicConfig, copyWarnings, formatCopyWarning } from './public-config';

describe('marketing claims checked against the plans at start-up', () => {
  it('has nothing to warn about on the default copy and catalog', () => {
    expect(copyWarnings(loadConfig({}))).toEqual([]);
  });

  it('warns about a configured claim untrue of a plan, naming the plan and what is wrong', () => {
    const config = loadConfig({ PRODUCT_COPY: JSON.stringify({ trialClaim: '7-day trial' }) });
    const lines = copyWarnings(config).map(formatCopyWarning);
    expect(lines).toContain(
      'PRODUCT_COPY.trialClaim "7-day trial" is not shown with plan roots_3d1_7d2499: says a 7-day trial; the plan has a 3-day trial',
    );
    // Both weekly trial plans are named; plans without a trial never show a trial claim.
    expect(lines.filter((line) => line.startsWith('PRODUCT_COPY.trialClaim'))).toHaveLength(2);
  });

  it('warns when the guarantee window claimed is not the configured one', () => {
    const config = loadConfig({ MONEY_BACK_GUARANTEE_DAYS: '14' });
    expect(copyWarnings(config).map((warning) => warning.key)).toEqual(['guaranteeText']);
  });

  it('gives the page the configured copy; each claim is checked in the page against the plan shown with it (ADR 148)', () => {
    const config = loadConfig({ PRODUCT_COPY: JSON.stringify({ discountClaim: 'Get 60% Discount Today' }) });
    expect(buildPublicConfig(config).copy.discountClaim).toBe('Get 60% Discount Today');
  });
});

describe('the subscription service the page calls (product-spec §7: staging when the origin contains dev)', () => {
  it('is the page’s own origin unless configured', () => {
    expect(buildPublicConfig(loadConfig({})).subscriptionApi).toEqual({ production: '', staging: '' });
  });

  it('refuses a base URL that is not http(s) at start-up', () => {
    expect(() => loadConfig({ SUBSCRIPTION_API_STAGING_URL: 'ftp://api.staging.example' })).toThrow(/SUBSCRIPTION_API_STAGING_URL/);
  });

  describe('with SUBSCRIPTION_API_URL and SUBSCRIPTION_API_STAGING_URL set', () => {
    let database: Database;
    let app: RootsApp;
    const env = {
      SUBSCRIPTION_API_URL: 'https://api.roots.example',
      SUBSCRIPTION_API_STAGING_URL: 'https://api.staging.roots.example:8443/v1',
    };

    beforeAll(async () => {
      database = await openTestDatabase(undefined);
      app = await buildTestApp({ database, env });
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    it('gives both to the page in its config, and lets the page connect to them', async () => {
      const page = await app.inject({ url: '/roots/subscription', headers: { accept: 'text/html' } });
      const json = /<script type="application\/json" id="roots-config">([^<]+)<\/script>/.exec(page.body)?.[1];
      expect(json).toBeDefined();
      expect((JSON.parse(json!) as PublicConfig).subscriptionApi).toEqual({
        production: 'https://api.roots.example',
        staging: 'https://api.staging.roots.example:8443/v1',
      });
      const connect = /connect-src ([^;]+)/.exec(String(page.headers['content-security-policy']))?.[1]?.split(' ');
      expect(connect).toEqual(expect.arrayContaining(['https://api.roots.example', 'https://api.staging.roots.example:8443']));
      const served = await app.inject('/api/config');
      expect(served.json<PublicConfig>().subscriptionApi?.staging).toBe('https://api.staging.roots.example:8443/v1');
    });
  });
});
