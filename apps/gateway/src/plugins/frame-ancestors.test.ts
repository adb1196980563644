import { describe, expect, it } from 'vitest';
import { parseMerchantOrigins, loadGatewayConfig } from '../config/env';
import { messageTargets, withFrameAncestors } from './frame-ancestors';
import { startGateway } from '../test/helpers';

describe('merchant origins (secure by default)', () => {
  it('default to the product’s own origin; `*` is refused in production; values are origins', () => {
    expect(loadGatewayConfig({}).merchantOrigins).toEqual(['http://127.0.0.1:3000']);
    expect(loadGatewayConfig({ PORT: '3140' }).merchantOrigins).toEqual(['http://127.0.0.1:3140']);
    expect(loadGatewayConfig({ PUBLIC_URL: 'https://roots.example/app' }).merchantOrigins).toEqual(['https://roots.example']);
    expect(loadGatewayConfig({ GATEWAY_MERCHANT_ORIGINS: '*' }).merchantOrigins).toBe('*');
    const secrets = {
      GATEWAY_VAULT_KEY: Buffer.from('3a7f1c9e5b2d8f4a6c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a', 'hex').toString('base64'),
      GATEWAY_MERCHANT_SECRET: 'sk_live_5Tq8Wm2Xr7Ky4Bn9Pd3Hf6Jc1Lv0Gz',
      GATEWAY_JWT_SECRET: 'jwt_9Xk2Lm4Pq7Rs1Tv3Wy5Za8Bc0De6Fg',
      GATEWAY_WEBHOOK_SECRET: 'whsec_Qe4Rn8Tb2Yk6Mx0Vs3Jp7Lc9Hw5Fd1Za',
    };
    expect(() => loadGatewayConfig({ NODE_ENV: 'production', ...secrets, GATEWAY_MERCHANT_ORIGINS: '*' })).toThrow(
      /GATEWAY_MERCHANT_ORIGINS/,
    );
    expect(loadGatewayConfig({ NODE_ENV: 'production', ...secrets, PUBLIC_URL: 'https://roots.example' }).merchantOrigins).toEqual([
      'https://roots.example',
    ]);
    expect(() => parseMerchantOrigins('shop.example')).toThrow(/not an origin/);
    expect(parseMerchantOrigins('https://a.example/x, https://a.example')).toEqual(['https://a.example']);
  });

  it('frame-ancestors lists exactly the merchant origins, replacing any other value', () => {
    expect(withFrameAncestors("default-src 'none'; frame-ancestors *", ['https://a.example', 'https://b.example'])).toBe(
      "default-src 'none'; frame-ancestors https://a.example https://b.example",
    );
    expect(withFrameAncestors(undefined, [])).toBe("frame-ancestors 'none'");
  });

  it('window messages go to an allowed return origin, else to each merchant origin, never to *', () => {
    expect(messageTargets(['https://a.example'], 'https://a.example/ok')).toEqual(['https://a.example']);
    expect(messageTargets(['https://a.example'], 'https://evil.example/ok')).toEqual(['https://a.example']);
    expect(messageTargets(['https://a.example', 'https://b.example'], undefined)).toEqual(['https://a.example', 'https://b.example']);
    expect(messageTargets('*', undefined)).toEqual([]);
    expect(messageTargets('*', 'https://c.example/ok')).toEqual(['https://c.example']);
  });

  it('every HTML answer carries frame-ancestors with the merchant origins: frames and hosted pages', async () => {
    const gateway = await startGateway({ GATEWAY_MERCHANT_ORIGINS: 'https://shop.example' });
    try {
      for (const path of [
        '/secure-fields/v1/card-number.html',
        '/sandbox/paypal/approve?token=x&origin=https://shop.example',
        '/3ds/nope',
      ]) {
        const answer = await fetch(`${gateway.url}${path}`);
        const type = answer.headers.get('content-type') ?? '';
        if (!type.startsWith('text/html')) continue;
        expect(answer.headers.get('content-security-policy'), path).toContain('frame-ancestors https://shop.example');
        expect(answer.headers.get('content-security-policy'), path).not.toContain('frame-ancestors *');
      }
      const frame = await fetch(`${gateway.url}/secure-fields/v1/card-number.html`);
      expect(frame.headers.get('content-security-policy')).toMatch(/frame-ancestors https:\/\/shop\.example$/);
    } finally {
      await gateway.close();
    }
  });
});
