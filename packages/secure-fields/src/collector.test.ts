// @vitest-environment jsdom
// @vitest-environment-options {"url":"https://gw.example/secure-fields/v1/pin.html"}
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SiblingMessage } from '@roots/contracts/frame-protocol';
import { Collector, recordsToStore } from './collector';

const GATEWAY = 'https://gw.example';
const message = {
  type: 'collect' as const,
  requestId: 'r1',
  tokenizeURL: `${GATEWAY}/vault/v1/tokens`,
  recordsURL: `${GATEWAY}/vault/v1/records`,
  elements: [
    { frameId: 'f1', field: 'pin' as const, table: 'persons', column: 'pin' },
    { frameId: 'f2', field: 'input-field' as const, table: 'persons', column: 'email' },
    { frameId: 'f3', field: 'checkbox' as const, table: 'consents', column: 'marketing' },
  ],
  additionalRecords: [{ table: 'persons', fields: { plan: 'weekly' } }],
  tokens: true,
  upsert: [{ table: 'persons', column: 'email' }],
};

function setUp(own = { field: 'pin' as const, value: '4821', valid: true }) {
  const posted: unknown[] = [];
  const siblings: SiblingMessage[] = [];
  const tokenRequests: string[] = [];
  const collector = new Collector({
    win: window,
    frameId: 'f1',
    channel: { postMessage: (sent) => void siblings.push(sent) },
    own: () => own,
    post: (sent) => void posted.push(sent),
    requestToken: (requestId) => void tokenRequests.push(requestId),
  });
  return { collector, posted, siblings, tokenRequests };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('records to store', () => {
  it('groups element values by table, merges the integrator’s records, leaves out card fields and empty values', () => {
    const values = new Map([
      ['f1', { field: 'pin' as const, value: '4821', valid: true }],
      ['f2', { field: 'input-field' as const, value: 'ada@example.com', valid: true }],
      ['f3', { field: 'checkbox' as const, value: '', valid: true }],
      ['f4', { field: 'card-number' as const, value: '4242424242424242', valid: true }],
    ]);
    const elements = [...message.elements, { frameId: 'f4', field: 'card-number' as const, table: 'cards', column: 'number' }];
    expect(recordsToStore(elements, values, message.additionalRecords)).toEqual([
      { table: 'persons', fields: { plan: 'weekly', pin: '4821', email: 'ada@example.com' } },
    ]);
  });
});

describe('the collecting frame', () => {
  it('gathers the siblings’ values, asks for the bearer token, stores the records and answers only tokens', async () => {
    const records = [
      { table: 'persons', skyflowID: 'rec_1', fields: { plan: 'tkn_0', pin: 'tkn_1', email: 'tkn_2' } },
      { table: 'consents', skyflowID: 'rec_2', fields: { marketing: 'tkn_3' } },
    ];
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => Response.json({ records }, { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    const { collector, posted, siblings, tokenRequests } = setUp();
    const collecting = collector.collect(message);
    await vi.waitFor(() => expect(siblings).toEqual([{ type: 'values-request', requestId: 'r1' }]));
    collector.receiveValues({
      type: 'values',
      requestId: 'r1',
      frameId: 'f2',
      field: 'input-field',
      value: 'ada@example.com',
      valid: true,
    });
    collector.receiveValues({ type: 'values', requestId: 'r1', frameId: 'f3', field: 'checkbox', value: 'yes', valid: true });
    await vi.waitFor(() => expect(tokenRequests).toEqual(['r1']));
    collector.receiveBearerToken('r1', 'bearer-1');
    await collecting;
    expect(fetch).toHaveBeenCalledOnce();
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`${GATEWAY}/vault/v1/records`);
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer bearer-1');
    expect(JSON.parse(String(init.body))).toEqual({
      records: [
        { table: 'persons', fields: { plan: 'weekly', pin: '4821', email: 'ada@example.com' } },
        { table: 'consents', fields: { marketing: 'yes' } },
      ],
      tokens: true,
      upsert: [{ table: 'persons', column: 'email' }],
    });
    expect(posted).toEqual([{ type: 'collect-result', requestId: 'r1', ok: true, result: { records } }]);
  });

  it('an invalid element stops the collect before anything is sent', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { collector, posted, tokenRequests } = setUp();
    const collecting = collector.collect(message);
    collector.receiveValues({ type: 'values', requestId: 'r1', frameId: 'f2', field: 'input-field', value: 'x', valid: false });
    collector.receiveValues({ type: 'values', requestId: 'r1', frameId: 'f3', field: 'checkbox', value: '', valid: true });
    await collecting;
    expect(posted).toEqual([
      { type: 'collect-result', requestId: 'r1', ok: false, error: { code: 'VALIDATION_FAILED', message: 'Invalid fields: input-field' } },
    ]);
    expect(tokenRequests).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses vault URLs of another origin', async () => {
    const { collector, posted } = setUp();
    await collector.collect({ ...message, recordsURL: 'https://evil.example/vault/v1/records' });
    expect(posted).toEqual([
      {
        type: 'collect-result',
        requestId: 'r1',
        ok: false,
        error: { code: 'COLLECT_OPERATION_FAILED', message: 'The vault URLs are not this vault' },
      },
    ]);
  });
});
