import { describe, expect, it } from 'vitest';
import { buildGatewayApp } from './app';
import { GatewayConfigError, loadGatewayConfig } from './config/env';

describe('gateway app', () => {
  it('answers health checks on its own origin', async () => {
    const app = await buildGatewayApp({ config: loadGatewayConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }) });
    expect((await app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await app.inject('/readyz')).statusCode).toBe(200);
    const missing = await app.inject('/nothing');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('NOT_FOUND');
    await app.close();
  });

  it('defaults to port 4000 and names bad variables', () => {
    expect(loadGatewayConfig({}).publicUrl).toBe('http://127.0.0.1:4000');
    expect(() => loadGatewayConfig({ GATEWAY_PORT: '99999' })).toThrow(GatewayConfigError);
    expect(() => loadGatewayConfig({ GATEWAY_PORT: '99999' })).toThrow(/GATEWAY_PORT/);
  });
});
