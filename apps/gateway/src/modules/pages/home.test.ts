import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startGateway, type TestGateway } from '../../test/helpers';
import { homeRoutes } from './home.routes';

describe('GET / on the gateway (the address npm start prints)', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('says what the origin is, lists the test cards and links the merchant API document', async () => {
    const page = await call<string>(`${gateway.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('<h1>Payment gateway</h1>');
    expect(page.text).toContain('4242 4242 4242 4242');
    expect(page.text).toContain('4000 0000 0000 3220');
    expect(page.text).toContain('3-D Secure challenge required, then success');
    expect(page.text).toContain('href="/openapi.json"');
    // The document it links is there.
    expect((await call(`${gateway.url}/openapi.json`)).status).toBe(200);
  });

  it('shows no test cards in production', async () => {
    const app = Fastify();
    await app.register(homeRoutes, { production: true });
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Payment gateway</h1>');
    expect(page.body).not.toContain('4242 4242 4242 4242');
    expect(page.body).not.toContain('Sandbox');
    await app.close();
  });
});
