import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config/env';
import type { Database } from '../db/database';
import { makeWebDist, openTestDatabase } from '../test/helpers';
import { CSP_REPORTS_PER_MINUTE } from './csp-report';
import { pageContentSecurityPolicy, resourceContentSecurityPolicy } from './security-headers';

/** Directive name → its sources. */
function directivesOf(policy: string | undefined): Map<string, string[]> {
  const entries = (policy ?? '').split(';').map((part) => part.trim().split(/\s+/));
  return new Map(entries.map(([name, ...sources]) => [name ?? '', sources]));
}

describe('security headers', () => {
  let database: Database;
  const logLines: string[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    database = await openTestDatabase(undefined);
    const config = loadConfig({
      NODE_ENV: 'test',
      WEB_DIST_DIR: makeWebDist(),
      GATEWAY_URL: 'https://pay.example:4443/api',
      AUTH_GOOGLE_ISSUER: 'https://accounts.google.test/o',
      AUTH_GOOGLE_CLIENT_ID: 'client',
      AUTH_GOOGLE_CLIENT_SECRET: 'secret',
      TRUST_PROXY: 'true',
    });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    app = await buildApp({ config, database, loggerInstance: pino({ level: 'warn' }, sink) });
  });
  afterAll(async () => {
    await app.close();
  });

  it('gives every page a strict policy: own scripts and the gateway only, frames and connections to the gateway and sign-in providers', async () => {
    for (const url of ['/roots/', '/roots/subscription', '/roots/webapp/home', '/no-such-page']) {
      const page = await app.inject({ url, headers: { accept: 'text/html' } });
      expect(page.headers['content-type'], url).toMatch(/^text\/html/);
      const csp = directivesOf(page.headers['content-security-policy'] as string);
      expect(csp.get('script-src'), url).toEqual(["'self'", 'https://pay.example:4443']);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(csp.get('frame-src')).toEqual(['https://pay.example:4443', 'https://accounts.google.test']);
      expect(csp.get('connect-src')).toEqual(["'self'", 'blob:', 'https://pay.example:4443', 'https://accounts.google.test']);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('report-uri')).toEqual(['/api/csp-report']);
      expect(page.headers['reporting-endpoints']).toBe('csp="/api/csp-report"');
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(page.headers['permissions-policy']).toMatch(/^camera=\(self\), microphone=\(\)/);
      expect(page.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
      expect(page.headers['strict-transport-security']).toBeUndefined();
      for (const sources of csp.values()) expect(sources.join(' ')).not.toMatch(/unsafe-eval|'unsafe-inline'.*script|\*/);
    }
  });

  it('denies everything to JSON answers, and sends HSTS only over https', async () => {
    const plans = await app.inject('/api/plans');
    expect(plans.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(plans.headers['x-content-type-options']).toBe('nosniff');
    const overHttps = await app.inject({ url: '/roots/', headers: { accept: 'text/html', 'x-forwarded-proto': 'https' } });
    expect(overHttps.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('logs CSP violation reports of both formats without their queries, and rate-limits them', async () => {
    const legacy = await app.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({
        'csp-report': {
          'document-uri': 'https://roots.example/roots/subscription?email=a@b.example',
          'blocked-uri': 'inline',
          'effective-directive': 'script-src-elem',
        },
      }),
    });
    expect(legacy.statusCode).toBe(204);
    const modern = await app.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': 'application/reports+json' },
      payload: JSON.stringify([
        {
          type: 'csp-violation',
          url: 'https://roots.example/roots/',
          body: {
            documentURL: 'https://roots.example/roots/',
            blockedURL: 'https://evil.example/x.js?q=1',
            effectiveDirective: 'script-src-elem',
          },
        },
      ]),
    });
    expect(modern.statusCode).toBe(204);
    const logged = logLines
      .filter((line) => line.includes('content security policy violation'))
      .map((line) => JSON.parse(line) as { csp: unknown });
    expect(logged.map((line) => line.csp)).toEqual([
      { directive: 'script-src-elem', blocked: 'inline', document: 'https://roots.example/roots/subscription' },
      { directive: 'script-src-elem', blocked: 'https://evil.example/x.js', document: 'https://roots.example/roots/' },
    ]);
    expect(logLines.join('')).not.toContain('a@b.example');

    const garbage = await app.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: '{oops',
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });

    const statuses: number[] = [];
    for (let i = 0; i <= CSP_REPORTS_PER_MINUTE; i += 1) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/csp-report',
        remoteAddress: '10.9.9.9',
        headers: { 'content-type': 'application/csp-report' },
        payload: JSON.stringify({ 'csp-report': { 'blocked-uri': 'inline' } }),
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, CSP_REPORTS_PER_MINUTE).every((status) => status === 204)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('lets the frame ancestors be configured', () => {
    const policy = pageContentSecurityPolicy({
      gatewayOrigin: 'https://pay.example',
      signInOrigins: [],
      frameAncestors: 'https://partner.example',
    });
    expect(directivesOf(policy).get('frame-ancestors')).toEqual(['https://partner.example']);
    expect(resourceContentSecurityPolicy("'self'")).toBe("default-src 'none'; frame-ancestors 'self'");
  });
});
