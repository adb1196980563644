import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../test/helpers';
import { OPENAPI_PATH } from '../app';

/** The committed document; `UPDATE_OPENAPI=1 npx vitest run apps/gateway/src/plugins/openapi.test.ts` rewrites it. */
const COMMITTED = new URL('../../../../docs/api/gateway.openapi.json', import.meta.url);

describe('the gateway’s OpenAPI document (ADR 113)', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(async () => gateway.close());

  it('is OpenAPI 3.1 of the SDK, vault and merchant APIs, served at /openapi.json', async () => {
    const served = await fetch(`${gateway.url}${OPENAPI_PATH}`);
    expect(served.status).toBe(200);
    const document = (await served.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    const paths = Object.keys(document.paths);
    expect(paths.some((path) => path.startsWith('/v1/'))).toBe(true);
    expect(paths.some((path) => path.startsWith('/merchant/v1/'))).toBe(true);
    expect(paths.some((path) => path.startsWith('/vault/'))).toBe(true);
    // The HTML pages (secure fields, 3-D Secure, wallet stand-ins) are not API.
    expect(paths.some((path) => path.startsWith('/secure-fields') || path.startsWith('/sandbox'))).toBe(false);
  });

  it('matches the committed docs/api/gateway.openapi.json (no drift)', () => {
    const generated = `${JSON.stringify(gateway.app.swagger(), null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(COMMITTED, generated);
    expect(existsSync(COMMITTED), 'run with UPDATE_OPENAPI=1 to write it').toBe(true);
    expect(readFileSync(COMMITTED, 'utf8'), 'the API changed: run with UPDATE_OPENAPI=1 and commit docs/api').toBe(generated);
  });
});
