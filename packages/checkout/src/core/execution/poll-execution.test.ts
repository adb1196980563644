import { describe, expect, it } from 'vitest';
import type { Execution, ExecutionStatus } from '@roots/contracts/gateway';
import { CheckoutError } from '../errors/checkout-error';
import {
  PIX_POLL_MAX_ATTEMPTS,
  POLL_AUTHORIZE_REQUESTED_MAX_POLLS,
  POLL_ERROR_COUNT_MULTIPLIER,
  POLL_INITIAL_DELAY_MS,
  POLL_INTERVAL_MS,
  POLL_MAX_ATTEMPTS,
  pollExecution,
} from './poll-execution';

function fakeTimers() {
  const sleeps: number[] = [];
  return { sleeps, timers: { sleep: async (ms: number) => void sleeps.push(ms) } };
}
const exec = (status: ExecutionStatus) => ({ status }) as Execution;
function sequence(...items: Array<ExecutionStatus | Error>) {
  let index = 0;
  const calls = { count: 0 };
  const fetchExecution = async () => {
    calls.count += 1;
    const item = items[Math.min(index++, items.length - 1)]!;
    if (item instanceof Error) throw item;
    return exec(item);
  };
  return { fetchExecution, calls };
}

describe('polling constants (checkout-spec §9)', () => {
  it('match the spec', () => {
    expect([
      POLL_INITIAL_DELAY_MS,
      POLL_INTERVAL_MS,
      POLL_MAX_ATTEMPTS,
      POLL_ERROR_COUNT_MULTIPLIER,
      POLL_AUTHORIZE_REQUESTED_MAX_POLLS,
    ]).toEqual([2000, 680, 60, 5, 10]);
    expect(PIX_POLL_MAX_ATTEMPTS).toBe(Math.ceil((750000 - 20000) / 2000));
  });
});

describe('pollExecution', () => {
  it('waits 2000 ms, then polls every 680 ms until final', async () => {
    const { sleeps, timers } = fakeTimers();
    const { fetchExecution } = sequence('authorizeRequested', 'confirmRequested');
    await expect(pollExecution({ fetchExecution, timers })).resolves.toMatchObject({ status: 'confirmRequested' });
    const again = sequence('authorizeRequested', 'authorizeRequested', 'authorizeSuccessful');
    const second = fakeTimers();
    await expect(pollExecution({ fetchExecution: again.fetchExecution, timers: second.timers })).resolves.toMatchObject({
      status: 'authorizeSuccessful',
    });
    expect(second.sleeps).toEqual([2000, 680, 680]);
    expect(sleeps[0]).toBe(2000);
  });

  it.each(['authorizeSuccessful', 'authorizeFailed', 'authorizePending'] as const)('stops on %s', async (status) => {
    const { timers } = fakeTimers();
    await expect(pollExecution({ fetchExecution: sequence(status).fetchExecution, timers })).resolves.toMatchObject({ status });
  });

  it('gives up with AUTHORIZATION_NOT_REQUESTED after 10 polls not yet authorized', async () => {
    const { timers } = fakeTimers();
    const { fetchExecution, calls } = sequence('authorizeRequested');
    await expect(pollExecution({ fetchExecution, timers })).rejects.toMatchObject({ code: 'AUTHORIZATION_NOT_REQUESTED' });
    expect(calls.count).toBe(10);
  });

  it('counts a failed poll 5 times: 12 failures exhaust 60 attempts', async () => {
    const { timers } = fakeTimers();
    const { fetchExecution, calls } = sequence(new Error('flaky'));
    await expect(pollExecution({ fetchExecution, timers })).rejects.toMatchObject({ code: 'MAX_POLL_ATTEMPTS_EXCEEDED' });
    expect(calls.count).toBe(60 / 5);
  });

  it('recovers from a transient failure', async () => {
    const { timers } = fakeTimers();
    await expect(
      pollExecution({ fetchExecution: sequence(new Error('x'), 'authorizeSuccessful').fetchExecution, timers }),
    ).resolves.toMatchObject({
      status: 'authorizeSuccessful',
    });
  });

  it('does not retry 401/403', async () => {
    const { timers } = fakeTimers();
    const { fetchExecution, calls } = sequence(new CheckoutError('UNAUTHORIZED'));
    await expect(pollExecution({ fetchExecution, timers })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(calls.count).toBe(1);
  });

  it('pix polling keeps going through pending until the attempts run out', async () => {
    const { timers, sleeps } = fakeTimers();
    const { fetchExecution } = sequence('authorizePending', 'authorizePending', 'authorizeSuccessful');
    await expect(
      pollExecution({ fetchExecution, timers, pendingIsFinal: false, initialDelayMs: 20_000, intervalMs: 2_000 }),
    ).resolves.toMatchObject({
      status: 'authorizeSuccessful',
    });
    expect(sleeps).toEqual([20_000, 2_000, 2_000]);
    const forever = sequence('authorizePending');
    await expect(
      pollExecution({ fetchExecution: forever.fetchExecution, timers, pendingIsFinal: false, maxAttempts: 5 }),
    ).rejects.toMatchObject({
      code: 'MAX_POLL_ATTEMPTS_EXCEEDED',
    });
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('unmounted'));
    await expect(
      pollExecution({ fetchExecution: sequence('authorizeRequested').fetchExecution, signal: controller.signal, initialDelayMs: 1 }),
    ).rejects.toThrow('unmounted');
  });
});
