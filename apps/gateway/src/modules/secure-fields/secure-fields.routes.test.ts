import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { frameCsp, SECURE_FIELDS_PREFIX, secureFieldsRoutes } from './secure-fields.routes';

describe('secure-fields plugin', () => {
  let app: FastifyInstance;
  const distDir = mkdtempSync(join(tmpdir(), 'roots-sf-'));
  beforeAll(async () => {
    writeFileSync(join(distDir, 'card-number.html'), '<!doctype html><title>x</title>');
    writeFileSync(join(distDir, 'card-number.js'), 'console.log(1)');
    writeFileSync(join(distDir, 'frame.css'), 'body{}');
    // A bare Fastify: the plugin alone (apps/gateway/src/app.ts registers it in the real gateway).
    app = Fastify();
    await app.register(secureFieldsRoutes, { distDir, frameAncestors: ['https://shop.example'] });
  });
  afterAll(() => app.close());

  it('serves a frame page with its CSP and the merchant as the only frame ancestor', async () => {
    const response = await app.inject(`${SECURE_FIELDS_PREFIX}/card-number.html`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['content-security-policy']).toContain('frame-ancestors https://shop.example');
    expect(response.headers['content-security-policy']).toContain("connect-src 'self'");
  });

  it('serves scripts and the stylesheet with their types', async () => {
    expect((await app.inject(`${SECURE_FIELDS_PREFIX}/card-number.js`)).headers['content-type']).toContain('text/javascript');
    expect((await app.inject(`${SECURE_FIELDS_PREFIX}/frame.css`)).headers['content-type']).toContain('text/css');
  });

  it('lets the merchant page preload the scripts in CORS mode, never the frame page', async () => {
    const script = await app.inject({ url: `${SECURE_FIELDS_PREFIX}/card-number.js`, headers: { origin: 'https://shop.example' } });
    expect(script.headers['access-control-allow-origin']).toBe('*');
    const page = await app.inject({ url: `${SECURE_FIELDS_PREFIX}/card-number.html`, headers: { origin: 'https://shop.example' } });
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves nothing outside the list, and 404s an unbuilt file', async () => {
    expect((await app.inject(`${SECURE_FIELDS_PREFIX}/..%2Fpackage.json`)).statusCode).toBe(404);
    expect((await app.inject(`${SECURE_FIELDS_PREFIX}/secret.txt`)).statusCode).toBe(404);
    expect((await app.inject(`${SECURE_FIELDS_PREFIX}/cvv.html`)).statusCode).toBe(404);
  });

  it('frame-ancestors: any, none or a list', () => {
    expect(frameCsp('*')).toContain('frame-ancestors *');
    expect(frameCsp([])).toContain("frame-ancestors 'none'");
  });
});
