import { attributionSchema } from '@roots/contracts/events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRemoteAddr, resetRemoteAddr } from './remote-addr';
import { buildAttribution, currentAttribution, loadAttribution, sendEvent } from './tracking';

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

describe('the ip and country of GET /remote-addr in the attribution record', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    resetRemoteAddr();
  });
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('maps ip to client_ip_address and country to country_code, over a country_code URL parameter', () => {
    const record = buildAttribution({
      slug: 'roots',
      url: 'https://roots.example/roots/?country_code=US',
      userAgent: 'UA',
      cookies: '',
      referrer: '',
      nowMs: 1,
      remote: { ip: '203.0.113.7', country: 'DE' },
    });
    expect(record).toMatchObject({ client_ip_address: '203.0.113.7', country_code: 'DE' });
    // An unknown country ('') leaves the URL's value; no answer leaves no ip.
    const unknownCountry = {
      slug: 'roots',
      url: 'https://roots.example/roots/?country_code=US',
      userAgent: 'UA',
      cookies: '',
      referrer: '',
      nowMs: 1,
    };
    expect(buildAttribution({ ...unknownCountry, remote: { ip: '203.0.113.7', country: '' } }).country_code).toBe('US');
    expect(buildAttribution(unknownCountry)).not.toHaveProperty('client_ip_address');
  });

  it('asks the server once per page load and puts its answer in every record after it', async () => {
    const fetchMock = vi.fn(async () => json({ ip: '198.51.100.4', country: 'FR' }));
    vi.stubGlobal('fetch', fetchMock);
    expect(currentAttribution('roots')).not.toHaveProperty('client_ip_address');
    await Promise.all([loadRemoteAddr(), loadRemoteAddr()]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]).toEqual(['/remote-addr', { headers: { accept: 'application/json' } }]);
    expect(currentAttribution('roots')).toMatchObject({ client_ip_address: '198.51.100.4', country_code: 'FR' });
    expect(await loadAttribution('roots')).toMatchObject({ client_ip_address: '198.51.100.4', country_code: 'FR' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('a funnel event waits for the answer and carries it in its campaign', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === '/remote-addr') return json({ ip: '192.0.2.9', country: 'NL' });
        sent.push(JSON.parse(String(init?.body)));
        return json({ id: 1 }, 201);
      }),
    );
    sendEvent('roots', 'intro');
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ event: 'intro', campaign: { client_ip_address: '192.0.2.9', country_code: 'NL' } });
  });

  it('a failed call leaves the record without them, and the next load asks again', async () => {
    const fetchMock = vi.fn(async () => json({ error: 'down' }, 503));
    vi.stubGlobal('fetch', fetchMock);
    expect(await loadAttribution('roots')).not.toHaveProperty('client_ip_address');
    fetchMock.mockImplementation(async () => json({ ip: '192.0.2.1', country: 'BE' }));
    expect(await loadAttribution('roots')).toMatchObject({ client_ip_address: '192.0.2.1', country_code: 'BE' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
