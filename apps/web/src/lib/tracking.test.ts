import { attributionSchema } from '@roots/contracts/events';
import { describe, expect, it } from 'vitest';
import { buildAttribution } from './tracking';

describe('attribution record', () => {
  it('takes campaign fields from the URL, fbp/fbc from cookies, and drops empty values', () => {
    const record = buildAttribution({
      slug: 'roots',
      url: 'https://roots.example/roots/?campaign_id=c1&ad_id=&adset_name=Spring%20set&wmq=1',
      userAgent: 'UA',
      cookies: '_fbp=fb.1.1.2; other=x',
      referrer: '',
      nowMs: 1700000000000,
    });
    expect(record).toEqual({
      project: 'roots',
      campaign_id: 'c1',
      adset_name: 'Spring set',
      fbp: 'fb.1.1.2',
      event_source_url: 'https://roots.example/roots/',
      client_user_agent: 'UA',
    });
  });

  it('builds fbc from fbclid when there is no cookie, and keeps the stored referrer', () => {
    const record = buildAttribution({
      slug: 'kin',
      url: 'https://k.example/kin/?fbclid=abc',
      userAgent: 'UA',
      cookies: '',
      referrer: 'https://news.example/',
      nowMs: 42,
    });
    expect(record.fbc).toBe('fb.1.42.abc');
    expect(record.referer).toBe('https://news.example/');
    expect(record.project).toBe('kin');
  });

  it('cuts a value longer than the server accepts (a long referrer) instead of sending an invalid record', () => {
    const referrer = `https://news.example/?q=${'x'.repeat(3_000)}`;
    const record = buildAttribution({
      slug: 'roots',
      url: 'https://roots.example/roots/',
      userAgent: 'UA',
      cookies: '',
      referrer,
      nowMs: 1,
    });
    expect(record.referer).toBe(referrer.slice(0, 2_000));
    expect(attributionSchema.safeParse(record).success).toBe(true);
  });
});
