import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionList } from '@roots/contracts/gateway';
import { call, merchantHeaders, payByCard, startGateway, type TestGateway } from '../../test/helpers';
import { decodeListCursor, encodeListCursor } from './list-cursor';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => gateway.close());

/** Every page of the listing from `since`, `limit` at a time. */
async function listAll(since: string, limit: number): Promise<{ pages: number; items: ExecutionList['items'] }> {
  const items: ExecutionList['items'] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: URLSearchParams = new URLSearchParams({ since, limit: String(limit), ...(cursor ? { cursor } : {}) });
    const page: { status: number; body: ExecutionList } = await call<ExecutionList>(`${gateway.url}/merchant/v1/executions?${query}`, {
      headers: merchantHeaders(),
    });
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    cursor = page.body.nextCursor;
    pages += 1;
  } while (cursor && pages < 50);
  return { pages, items };
}

describe('GET /merchant/v1/executions (ADR 127)', () => {
  it('lists executions changed since a time, oldest change first, every one exactly once across pages', async () => {
    const since = new Date(Date.now() - 1_000).toISOString();
    const paid = [];
    for (let index = 0; index < 5; index += 1) {
      const { execution } = await payByCard(gateway, { number: '4242424242424242' }, { amount: 1000 + index });
      paid.push(execution.body);
    }
    const { pages, items } = await listAll(since, 2);
    expect(pages).toBeGreaterThanOrEqual(3);
    const ids = items.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const execution of paid) {
      expect(items.find((item) => item.id === execution.id)).toEqual({
        id: execution.id,
        status: 'authorizeSuccessful',
        amount: execution.amount,
        amountRefunded: 0,
        holderReference: execution.holderReference,
        ...(execution.orderReference ? { orderReference: execution.orderReference } : {}),
        merchantInitiated: false,
        createdAt: execution.createdAt,
        updatedAt: execution.updatedAt,
      });
    }
    const changes = items.map((item) => item.updatedAt);
    expect([...changes].sort()).toEqual(changes);
    // Nothing changed after now.
    const later = await call<ExecutionList>(
      `${gateway.url}/merchant/v1/executions?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
      { headers: merchantHeaders() },
    );
    expect(later.body).toEqual({ items: [], nextCursor: null });
  });

  it('is the merchant’s only: no key or a wrong key is refused', async () => {
    expect((await call(`${gateway.url}/merchant/v1/executions`)).status).toBe(401);
    expect((await call(`${gateway.url}/merchant/v1/executions`, { headers: { 'x-api-key': 'sk_test_wrong_key_000000' } })).status).toBe(
      401,
    );
  });

  it('refuses a bad limit, time or cursor with a validation error', async () => {
    for (const query of ['limit=0', 'limit=201', 'since=yesterday', 'cursor=not-a-cursor', `cursor=${'x'.repeat(201)}`]) {
      const answer = await call<{ code: string }>(`${gateway.url}/merchant/v1/executions?${query}`, { headers: merchantHeaders() });
      expect(answer.status, query).toBe(400);
      expect(answer.body.code, query).toBe('VALIDATION_ERROR');
    }
  });

  it('round-trips its cursor', () => {
    const at = new Date('2026-11-25T12:00:00.123Z');
    expect(decodeListCursor(encodeListCursor(at, 'ex_1'))).toEqual({ at, id: 'ex_1' });
    expect(() => decodeListCursor(Buffer.from('[1,2]').toString('base64url'))).toThrow(/cursor/);
  });
});
