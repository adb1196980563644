import { describe, expect, it } from 'vitest';
import { readPublicConfig } from './public-config';

describe('readPublicConfig', () => {
  it('reads the config the server injected', () => {
    const doc = document.implementation.createHTMLDocument();
    const script = doc.createElement('script');
    script.id = 'roots-config';
    script.type = 'application/json';
    script.textContent = JSON.stringify({
      slug: 'kin',
      productName: 'Kin',
      version: '0.42.12',
      copy: {
        headline: 'h',
        discountClaim: 'd',
        trialClaim: 't',
        guaranteeClaim: 'g',
        guaranteeText: 'gt',
        renewalClaim: 'r',
        usersClaim: 'u',
        privacyClaim: 'p',
        biometricClaim: 'b',
      },
      gatewayOrigin: 'http://127.0.0.1:4000',
      trackingEnabled: false,
      guaranteeDays: 30,
      links: { cookies: '/c', privacy: '/p', terms: '/t' },
      legal: { operatorName: 'Kin Ltd', operatorAddress: null, contactEmail: 'help@kin.example' },
    });
    doc.head.append(script);
    expect(readPublicConfig(doc)).toMatchObject({ slug: 'kin', productName: 'Kin' });
  });

  it('rejects a malformed config instead of running on half of one', () => {
    const doc = document.implementation.createHTMLDocument();
    const script = doc.createElement('script');
    script.id = 'roots-config';
    script.textContent = JSON.stringify({ slug: 'kin' });
    doc.head.append(script);
    expect(() => readPublicConfig(doc)).toThrow();
  });
});
