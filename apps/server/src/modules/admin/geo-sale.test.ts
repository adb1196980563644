import { FACE_ANALYSIS_NOT_OFFERED } from '@roots/contracts/admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../../app';
import type { Database } from '../../db/database';
import { buildTestApp, openTestDatabase } from '../../test/helpers';

/**
 * Issue 24: the geo policy holds at the sale. From a country where the face analysis is not offered
 * (the default: the EU/EEA), a plan that includes it cannot be bought: no gateway session opens and
 * no purchase is created. Every product includes it, Profile Pro too since its buyer is owed a report
 * (ADR 194), so nothing is sold there.
 */
describe('the geo policy at the sale', () => {
  let database: Database;
  let app: RootsApp;
  beforeAll(async () => {
    database = await openTestDatabase(undefined);
    // A gateway nobody listens on: a checkout that passes the policy answers 503, one that does not, 403.
    app = await buildTestApp({
      database,
      env: { TRUST_PROXY: 'true', COUNTRY_HEADER: 'x-test-country', GATEWAY_URL: 'http://127.0.0.1:9', GATEWAY_TIMEOUT_MS: '200' },
    });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const initSession = (country: string, planId: string) =>
    app.inject({ method: 'POST', url: '/init/session', headers: { 'x-test-country': country }, payload: { plan_id: planId } });

  it('a German visitor cannot open a checkout for a plan with the face analysis, Profile Pro included', async () => {
    for (const planId of [
      'roots_3d1_7d2499',
      'roots_3m4800_3m4999',
      'roots_ultimate_pack_4999_otp',
      'roots_report_2899_otp',
      'roots_profile_pro_2899_otp',
    ]) {
      const refused = await initSession('DE', planId);
      expect(refused.statusCode, planId).toBe(403);
      expect(refused.json()).toEqual({ code: 'FORBIDDEN', error: FACE_ANALYSIS_NOT_OFFERED });
    }
    expect((await app.inject({ url: '/init/session?plan_id=roots_3d1_7d2499', headers: { 'x-test-country': 'FR' } })).statusCode).toBe(403);
    // Allowed: the checkout goes on to the gateway (down here: 503, not a refusal).
    expect((await initSession('US', 'roots_profile_pro_2899_otp')).statusCode).toBe(503);
    expect((await initSession('US', 'roots_3d1_7d2499')).statusCode).toBe(503);
  });

  it('nor create the purchase with a payment made elsewhere', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/subs/create-no-user',
      headers: { 'x-test-country': 'DE', origin: 'http://127.0.0.1:3000' },
      payload: {
        plan_id: 'roots_3d1_7d2499',
        email: 'eu.buyer@example.com',
        card: { execution_id: 'exe_elsewhere' },
        consent: { terms_text: 't', terms_version: 'v1' },
      },
    });
    expect(created.statusCode).toBe(403);
    expect(created.json()).toEqual({ code: 'FORBIDDEN', error: FACE_ANALYSIS_NOT_OFFERED });
  });
});
