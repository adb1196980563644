import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue.js';

/** A task that ends when the test says so. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FairQueue (ADR 165)', () => {
  it('holds at most concurrency + maxWaiting photos and says when to come back', () => {
    const queue = new FairQueue({ concurrency: 1, maxWaiting: 2, perClient: 10 });
    const admitted = ['a', 'b', 'c'].map((client) => queue.admit(client));
    expect(admitted.every((answer) => answer.ok)).toBe(true);
    expect(queue.stats()).toEqual({ running: 1, waiting: 2, capacity: 3, clients: 3, saturated: true });
    const refused = queue.admit('d');
    expect(refused).toMatchObject({ ok: false, reason: 'full' });
    expect(refused.ok ? 0 : refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('gives no client more than its share of places', () => {
    const queue = new FairQueue({ concurrency: 1, maxWaiting: 10, perClient: 2 });
    expect(queue.admit('flood').ok).toBe(true);
    expect(queue.admit('flood').ok).toBe(true);
    expect(queue.admit('flood')).toMatchObject({ ok: false, reason: 'share' });
    expect(queue.admit('shopper').ok).toBe(true);
  });

  it('starts waiting photos client after client, not in arrival order', async () => {
    const queue = new FairQueue({ concurrency: 1, maxWaiting: 10, perClient: 5 });
    const order: string[] = [];
    const gates: Array<() => void> = [];
    const send = (client: string, name: string) => {
      const admitted = queue.admit(client);
      if (!admitted.ok) throw new Error('refused');
      return admitted.ticket.run(async () => {
        order.push(name);
        const { open, opened } = gate();
        gates.push(open);
        await opened;
      });
    };
    const all = [send('a', 'a1'), send('a', 'a2'), send('a', 'a3'), send('b', 'b1'), send('b', 'b2'), send('c', 'c1')];
    for (let step = 0; step < 6; step++) {
      await settle();
      gates.shift()?.();
    }
    await Promise.all(all);
    expect(order).toEqual(['a1', 'a2', 'b1', 'c1', 'a3', 'b2']);
    expect(queue.stats()).toMatchObject({ running: 0, waiting: 0, clients: 0 });
  });

  it('gives the place back when the task throws or the caller cancels', async () => {
    const queue = new FairQueue({ concurrency: 1, maxWaiting: 1, perClient: 2 });
    const first = queue.admit('a');
    const second = queue.admit('a');
    if (!first.ok || !second.ok) throw new Error('refused');
    second.ticket.cancel();
    expect(queue.stats()).toMatchObject({ running: 1, waiting: 0 });
    await expect(first.ticket.run(async () => Promise.reject(new Error('engine failed')))).rejects.toThrow('engine failed');
    expect(queue.stats()).toMatchObject({ running: 0, waiting: 0, clients: 0 });
    // Cancelled after its turn came: the running place is freed too.
    const third = queue.admit('b');
    if (!third.ok) throw new Error('refused');
    expect(queue.stats().running).toBe(1);
    third.ticket.cancel();
    expect(queue.stats()).toMatchObject({ running: 0, clients: 0 });
    // Cancelled while its task runs: the place stays taken until the task ends.
    const fourth = queue.admit('c');
    if (!fourth.ok) throw new Error('refused');
    const { open, opened } = gate();
    const running = fourth.ticket.run(() => opened);
    await settle();
    fourth.ticket.cancel();
    expect(queue.stats().running).toBe(1);
    open();
    await running;
    expect(queue.stats()).toMatchObject({ running: 0, clients: 0 });
  });

  it('refuses limits that are not whole numbers', () => {
    expect(() => new FairQueue({ concurrency: 0, maxWaiting: 1, perClient: 1 })).toThrow(/concurrency/);
    expect(() => new FairQueue({ concurrency: 1, maxWaiting: -1, perClient: 1 })).toThrow(/maxWaiting/);
  });
});
