import { consentTermsOf } from '@roots/contracts/subscriptions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RootsApp } from '../../app';
import { loadConfig } from '../../config/env';
import type { Database } from '../../db/database';
import { subscriptions } from '../../db/schema';
import { startGatewayProcess, type GatewayProcess } from '../../test/gateway-process';
import { makeWebDist, openTestDatabase } from '../../test/helpers';
import { http, payWithCard, purchaseBody } from '../../test/shopper';
import { startSmtp } from '../../test/smtp';

const WEEKLY = 'roots_3d1_7d2499';
const FORGED = 'I agree to nothing. <a href="https://evil.example">claim your prize</a>';

describe('the consent record (issue 17)', () => {
  let gateway: GatewayProcess;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let database: Database;
  let app: RootsApp;
  let base: string;

  beforeAll(async () => {
    [gateway, smtp] = await Promise.all([startGatewayProcess(), startSmtp()]);
    database = await openTestDatabase(undefined);
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: makeWebDist(),
      GATEWAY_URL: gateway.url,
      SMTP_URL: smtp.url,
    });
    app = await buildApp({ config, database });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await Promise.all([gateway?.stop(), smtp?.stop()]);
  });

  it('stores and mails the server’s own disclosure of the plan, never the terms_text a client sent', async () => {
    const buyer = 'consent.forger@example.com';
    const paid = await payWithCard(base, WEEKLY);
    const created = await http<{ id: string }>(`${base}/subs/create-no-user`, {
      json: purchaseBody(paid, buyer, { consent: { terms_text: FORGED, terms_version: 'v-forged' } }),
    });
    expect(created.status, created.text).toBe(200);
    const [row] = await database.db.select().from(subscriptions).where(eq(subscriptions.id, created.body.id));
    const plan = loadConfig({}).catalog.plans.find((item) => item.id === WEEKLY)!;
    const own = consentTermsOf(plan);
    expect(row).toMatchObject({ termsText: own.terms_text, termsVersion: own.terms_version });
    const receipt = await smtp.waitFor((mail) => mail.to.includes(buyer) && mail.subject.includes('receipt'));
    expect(receipt.text).toContain(own.terms_text.slice(0, 60));
    expect(receipt.text).not.toContain('evil.example');
  }, 120_000);
});
