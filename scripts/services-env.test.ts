import { describe, expect, it } from 'vitest';
import { serviceEnv } from './lib/services.mjs';

/** `npm start`'s services: the server follows the gateway, and the gateway's webhooks reach the server (ADR 158). */
describe('the environment npm start runs gateway and server with', () => {
  it('sends the gateway’s webhooks to the server’s own route unless told otherwise', () => {
    const { childEnv, serverUrl, gatewayUrl } = serviceEnv({ PORT: '3300', GATEWAY_PORT: '4300' });
    expect(serverUrl).toBe('http://127.0.0.1:3300');
    expect(childEnv.GATEWAY_URL).toBe(gatewayUrl);
    expect(childEnv.GATEWAY_WEBHOOK_URLS).toBe('http://127.0.0.1:3300/api/gateway/webhooks');
    expect(serviceEnv({ GATEWAY_WEBHOOK_URLS: 'https://merchant.example/hooks' }).childEnv.GATEWAY_WEBHOOK_URLS).toBe(
      'https://merchant.example/hooks',
    );
    expect(serviceEnv({ GATEWAY_WEBHOOK_URLS: '' }).childEnv.GATEWAY_WEBHOOK_URLS).toBe('');
  });
});
