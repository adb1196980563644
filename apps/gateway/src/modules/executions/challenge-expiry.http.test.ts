import type { Execution, ExecutionList } from '@roots/contracts/gateway';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, merchantHeaders, payByCard, poll, postForm, startGateway, testId, type TestGateway } from '../../test/helpers';

/** The 3-D Secure test card whose challenge succeeds once answered (README "Test cards"). */
const CHALLENGE_CARD = '4000000000003220';
const DEFAULT_TTL_MS = 600_000;

/**
 * A 3-D Secure challenge nobody answers (the shopper closed the window) expires at the gateway
 * (issue 24). Time is a test clock: only `Date` is faked, frozen at the start of each test and moved
 * by hand, so nothing here waits.
 */
describe('an unanswered 3-D Secure challenge expires', () => {
  let gateway: TestGateway;
  let shortWindow: TestGateway;
  let start: number;

  beforeAll(async () => {
    gateway = await startGateway();
    shortWindow = await startGateway({ GATEWAY_CHALLENGE_TTL_SECONDS: '30' });
  });
  afterAll(async () => {
    await gateway.close();
    await shortWindow.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const freezeClock = () => {
    start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
  };
  const at = (elapsedMs: number) => vi.setSystemTime(start + elapsedMs);

  async function challenged(target: TestGateway) {
    const paid = await payByCard(target, { number: CHALLENGE_CARD });
    expect(paid.execution.body.status).toBe('authorizePending');
    const href = paid.execution.body.links.threeDS?.href;
    if (!href) throw new Error('no challenge link');
    return { ...paid, href };
  }

  const merchantRead = async (target: TestGateway, id: string) =>
    (await call<Execution>(`${target.url}/merchant/v1/executions/${id}`, { headers: merchantHeaders() })).body;

  it('stays pending within 10 minutes, then fails as payment_expired on the next poll', async () => {
    freezeClock();
    const { session } = await challenged(gateway);
    at(DEFAULT_TTL_MS - 1_000);
    expect((await poll(session)).status).toBe('authorizePending');
    at(DEFAULT_TTL_MS + 1_000);
    const expired = await poll(session);
    expect(expired.status).toBe('authorizeFailed');
    expect(expired.finalState?.code).toBe('authorizeFailed');
    expect(expired.finalState?.errors[0]?.reason).toMatchObject({ code: 'payment_expired', type: 'AUTHORIZATION_ERROR' });
  });

  it('a late but timely answer still pays; once expired, the right code no longer does', async () => {
    freezeClock();
    const timely = await challenged(gateway);
    const late = await challenged(gateway);
    const codeOf = async (href: string) => testId((await call<string>(href)).text, 'otp-hint') ?? '';
    const token = (href: string) => new URL(href).searchParams.get('t') ?? '';
    const timelyCode = await codeOf(timely.href);
    const lateCode = await codeOf(late.href);
    expect(lateCode).toMatch(/^\d{6}$/);

    at(DEFAULT_TTL_MS - 1_000);
    const answered = await postForm(`${gateway.url}/3ds/${timely.session.executionId}`, {
      t: token(timely.href),
      action: 'submit',
      code: timelyCode,
    });
    expect(testId(answered.text, 'result')).toBe('Payment authorized');
    expect((await poll(timely.session)).status).toBe('authorizeSuccessful');

    at(DEFAULT_TTL_MS + 1_000);
    const refused = await postForm(`${gateway.url}/3ds/${late.session.executionId}`, {
      t: token(late.href),
      action: 'submit',
      code: lateCode,
    });
    expect(refused.text).toContain('data-status="authorizeFailed"');
    const read = await merchantRead(gateway, late.session.executionId);
    expect(read.status).toBe('authorizeFailed');
    expect(read.finalState?.errors[0]?.reason.code).toBe('payment_expired');
  });

  it('the merchant listing shows an expired challenge as failed without anyone polling it', async () => {
    freezeClock();
    const { session } = await challenged(gateway);
    at(DEFAULT_TTL_MS + 1_000);
    const since = new Date(start - 1_000).toISOString();
    const listing = await call<ExecutionList>(`${gateway.url}/merchant/v1/executions?${new URLSearchParams({ since, limit: '100' })}`, {
      headers: merchantHeaders(),
    });
    expect(listing.status).toBe(200);
    const item = listing.body.items.find((candidate) => candidate.id === session.executionId);
    expect(item?.status).toBe('authorizeFailed');
  });

  it('GATEWAY_CHALLENGE_TTL_SECONDS sets the window', async () => {
    freezeClock();
    const { session } = await challenged(shortWindow);
    at(29_000);
    expect((await merchantRead(shortWindow, session.executionId)).status).toBe('authorizePending');
    at(31_000);
    expect((await merchantRead(shortWindow, session.executionId)).finalState?.errors[0]?.reason.code).toBe('payment_expired');
  });
});
