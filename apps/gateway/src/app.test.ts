import { describe, expect, it } from 'vitest';
import { buildGatewayApp } from './app';
import { DEV_DEFAULT_SECRETS, GatewayConfigError, loadGatewayConfig } from './config/env';

describe('gateway app', () => {
  it('answers health checks on its own origin', async () => {
    const app = await buildGatewayApp({
      config: loadGatewayConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', GATEWAY_DATA_DIR: 'memory://' }),
    });
    expect((await app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await app.inject('/readyz')).statusCode).toBe(200);
    const missing = await app.inject('/nothing');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('NOT_FOUND');
    expect(missing.headers['x-request-id']).toEqual(expect.any(String));
    await app.close();
  });

  it('defaults to port 4000 and names bad variables', () => {
    expect(loadGatewayConfig({}).publicUrl).toBe('http://127.0.0.1:4000');
    expect(() => loadGatewayConfig({ GATEWAY_PORT: '99999' })).toThrow(GatewayConfigError);
    expect(() => loadGatewayConfig({ GATEWAY_PORT: '99999' })).toThrow(/GATEWAY_PORT/);
    expect(() => loadGatewayConfig({ GATEWAY_VAULT_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/GATEWAY_VAULT_KEY/);
    expect(() => loadGatewayConfig({ GATEWAY_WEBHOOK_URLS: 'not a url' })).toThrow(/GATEWAY_WEBHOOK_URLS/);
  });

  it('uses development secrets only outside production', () => {
    const dev = loadGatewayConfig({});
    expect(dev.GATEWAY_VAULT_KEY).toBe(DEV_DEFAULT_SECRETS.GATEWAY_VAULT_KEY);
    expect(dev.devSecrets).toHaveLength(4);
    expect(() => loadGatewayConfig({ NODE_ENV: 'production' })).toThrow(/GATEWAY_VAULT_KEY.*production/);
    const production = loadGatewayConfig({
      NODE_ENV: 'production',
      GATEWAY_VAULT_KEY: Buffer.alloc(32, 7).toString('base64'),
      GATEWAY_MERCHANT_SECRET: 'sk_live_0123456789abcdef',
      GATEWAY_JWT_SECRET: 'x'.repeat(32),
      GATEWAY_WEBHOOK_SECRET: 'whsec_0123456789abcdef',
      GATEWAY_WEBHOOK_URLS: 'http://127.0.0.1:3000/hooks/gateway, http://127.0.0.1:3001/hooks',
      GATEWAY_MERCHANT_ORIGINS: 'https://roots.example/, https://www.roots.example',
    });
    expect(production.devSecrets).toEqual([]);
    expect(production.GATEWAY_WEBHOOK_URLS).toHaveLength(2);
    expect(production.merchantOrigins).toEqual(['https://roots.example', 'https://www.roots.example']);
  });
});
