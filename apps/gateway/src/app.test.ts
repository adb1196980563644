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
      GATEWAY_VAULT_KEY: Buffer.from('3a7f1c9e5b2d8f4a6c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a', 'hex').toString('base64'),
      GATEWAY_MERCHANT_SECRET: 'sk_live_5Tq8Wm2Xr7Ky4Bn9Pd3Hf6Jc1Lv0Gz',
      GATEWAY_JWT_SECRET: 'jwt_9Xk2Lm4Pq7Rs1Tv3Wy5Za8Bc0De6Fg',
      GATEWAY_WEBHOOK_SECRET: 'whsec_Qe4Rn8Tb2Yk6Mx0Vs3Jp7Lc9Hw5Fd1Za',
      GATEWAY_WEBHOOK_URLS: 'http://127.0.0.1:3000/hooks/gateway, http://127.0.0.1:3001/hooks',
      GATEWAY_MERCHANT_ORIGINS: 'https://roots.example/, https://www.roots.example',
    });
    expect(production.devSecrets).toEqual([]);
    // Issue 22: a published development value, a repeated one, or one value for two purposes is refused.
    const good = {
      NODE_ENV: 'production',
      GATEWAY_VAULT_KEY: production.GATEWAY_VAULT_KEY,
      GATEWAY_MERCHANT_SECRET: 'sk_live_5Tq8Wm2Xr7Ky4Bn9Pd3Hf6Jc1Lv0Gz',
      GATEWAY_JWT_SECRET: 'jwt_9Xk2Lm4Pq7Rs1Tv3Wy5Za8Bc0De6Fg',
      GATEWAY_WEBHOOK_SECRET: 'whsec_Qe4Rn8Tb2Yk6Mx0Vs3Jp7Lc9Hw5Fd1Za',
      GATEWAY_MERCHANT_ORIGINS: 'https://roots.example',
    };
    expect(() => loadGatewayConfig({ ...good, GATEWAY_JWT_SECRET: DEV_DEFAULT_SECRETS.GATEWAY_JWT_SECRET })).toThrow(
      /GATEWAY_JWT_SECRET: is a value published in the repository/,
    );
    expect(() => loadGatewayConfig({ ...good, GATEWAY_JWT_SECRET: 'x'.repeat(32) })).toThrow(/GATEWAY_JWT_SECRET: repeats a character/);
    // Issue 32: near-variants of published values and sequences are refused too, not only exact values.
    expect(() => loadGatewayConfig({ ...good, GATEWAY_JWT_SECRET: `${DEV_DEFAULT_SECRETS.GATEWAY_JWT_SECRET}-2026` })).toThrow(
      /GATEWAY_JWT_SECRET: is a value published in the repository .* or is derived from one/,
    );
    expect(() => loadGatewayConfig({ ...good, GATEWAY_WEBHOOK_SECRET: 'abcdefghijklmnopqrstuvwxyz012345' })).toThrow(
      /GATEWAY_WEBHOOK_SECRET: is mostly a sequence/,
    );
    expect(() => loadGatewayConfig({ ...good, GATEWAY_MERCHANT_SECRET: 'sk_live_8f3a9c2e71d04b5a' })).toThrow(
      /GATEWAY_MERCHANT_SECRET: is 24 characters, at least 32 are needed/,
    );
    expect(() => loadGatewayConfig({ ...good, GATEWAY_WEBHOOK_SECRET: good.GATEWAY_MERCHANT_SECRET })).toThrow(
      /GATEWAY_MERCHANT_SECRET: must differ from GATEWAY_WEBHOOK_SECRET/,
    );
    expect(production.GATEWAY_WEBHOOK_URLS).toHaveLength(2);
    expect(production.merchantOrigins).toEqual(['https://roots.example', 'https://www.roots.example']);
  });
});
