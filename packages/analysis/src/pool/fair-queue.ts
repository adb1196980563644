/**
 * Limits of one process's analysis queue (ADR 165): `concurrency` photos run at once (the workers,
 * or the photos sent to analyzers), `maxWaiting` more wait, and no client holds more than
 * `perClient` of those places, running or waiting.
 */
export type FairQueueLimits = { concurrency: number; maxWaiting: number; perClient: number };

/** Why a photo was not admitted: the whole queue is full, or this client already holds its share. */
export type Refusal = { ok: false; reason: 'full' | 'share'; retryAfterSeconds: number };

/** A place in the queue, held from admission until `done`. */
export interface Ticket {
  /** Waits for this photo's turn, runs `task`, then gives the place back (also when `task` throws). */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Gives the place back without running (the caller gave up before running); idempotent, a no-op once `run` was called. */
  cancel(): void;
}

export type QueueStats = { running: number; waiting: number; capacity: number; clients: number; saturated: boolean };

/** Seconds a refused client is told to wait, at least and at most. */
const RETRY_AFTER_BOUNDS_S = [1, 60] as const;
/** Weight of the newest run in the running average of run times. */
const EWMA_WEIGHT = 0.2;

type Waiter = { client: string; start: () => void };

/**
 * A bounded queue with a fair share per client: places are admitted synchronously (so a full queue
 * answers at once, before anything is stored or decoded), and when a worker frees up the next photo
 * comes from the next client in turn (round-robin), not from whoever sent the most. A client that
 * sends 20 photos waits behind itself; a client that sends one waits for at most one photo of each
 * other client.
 *
 * @example
 * const queue = new FairQueue({ concurrency: 2, maxWaiting: 16, perClient: 4 });
 * const admitted = queue.admit(request.ip);
 * if (!admitted.ok) return reply.status(503).header('retry-after', admitted.retryAfterSeconds).send(...);
 * const outcome = await admitted.ticket.run(() => engine.check(bytes));
 */
export class FairQueue {
  private running = 0;
  private waitingCount = 0;
  /** Places held per client, running or waiting. */
  private readonly held = new Map<string, number>();
  /** Waiting photos per client, oldest first. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** Clients with a waiting photo, in the order their turn comes. */
  private readonly turns: string[] = [];
  private averageRunMs = 1_000;

  constructor(readonly limits: FairQueueLimits) {
    for (const [name, value] of Object.entries(limits)) {
      if (!Number.isInteger(value) || value < (name === 'maxWaiting' ? 0 : 1)) throw new RangeError(`FairQueue ${name}: ${value}`);
    }
  }

  get capacity(): number {
    return this.limits.concurrency + this.limits.maxWaiting;
  }

  stats(): QueueStats {
    const total = this.running + this.waitingCount;
    return {
      running: this.running,
      waiting: this.waitingCount,
      capacity: this.capacity,
      clients: this.held.size,
      saturated: total >= this.capacity,
    };
  }

  /** A place for `client`'s photo, or why not (synchronous: nothing waits to be refused). */
  admit(client: string): { ok: true; ticket: Ticket } | Refusal {
    // Full first: a caller that can go elsewhere (another analyzer) learns that this one has no room at all.
    if (this.running + this.waitingCount >= this.capacity) {
      return { ok: false, reason: 'full', retryAfterSeconds: this.retryAfter(this.waitingCount + 1) };
    }
    const mine = this.held.get(client) ?? 0;
    if (mine >= this.limits.perClient) return { ok: false, reason: 'share', retryAfterSeconds: this.retryAfter(mine) };
    this.held.set(client, mine + 1);
    // Queued at once: the place in line is taken at admission, not when the caller gets round to running.
    let dispatched = false;
    let running = false;
    let finished = false;
    let startTurn: () => void = () => undefined;
    const turn = new Promise<void>((resolve) => {
      startTurn = resolve;
    });
    const waiter: Waiter = {
      client,
      start: () => {
        dispatched = true;
        startTurn();
      },
    };
    this.enqueue(waiter);
    this.dispatch();
    const finish = (ranMs: number | undefined) => {
      if (finished) return;
      finished = true;
      const left = (this.held.get(client) ?? 1) - 1;
      if (left > 0) this.held.set(client, left);
      else this.held.delete(client);
      if (dispatched) {
        this.running -= 1;
        if (ranMs !== undefined) this.averageRunMs += EWMA_WEIGHT * (ranMs - this.averageRunMs);
        this.dispatch();
      } else this.removeWaiting(waiter);
    };
    return {
      ok: true,
      ticket: {
        run: async <T>(task: () => Promise<T>): Promise<T> => {
          if (finished || running) throw new Error('FairQueue ticket already used');
          running = true;
          await turn;
          const startedAt = performance.now();
          try {
            return await task();
          } finally {
            finish(performance.now() - startedAt);
          }
        },
        // Once `run` has been called the place is given back when the task ends, never before.
        cancel: () => {
          if (!running) finish(undefined);
        },
      },
    };
  }

  private enqueue(waiter: Waiter): void {
    const line = this.waiting.get(waiter.client);
    if (line) line.push(waiter);
    else {
      this.waiting.set(waiter.client, [waiter]);
      this.turns.push(waiter.client);
    }
    this.waitingCount += 1;
  }

  /** Takes a waiting photo out of line; false when it had already started. */
  private removeWaiting(waiter: Waiter): boolean {
    const line = this.waiting.get(waiter.client);
    const index = line?.indexOf(waiter) ?? -1;
    if (!line || index < 0) return false;
    line.splice(index, 1);
    this.waitingCount -= 1;
    if (line.length === 0) {
      this.waiting.delete(waiter.client);
      this.turns.splice(this.turns.indexOf(waiter.client), 1);
    }
    return true;
  }

  /** Starts waiting photos while a place to run is free, one client after the other. */
  private dispatch(): void {
    while (this.running < this.limits.concurrency && this.turns.length > 0) {
      const client = this.turns.shift() as string;
      const line = this.waiting.get(client) as Waiter[];
      const next = line.shift() as Waiter;
      this.waitingCount -= 1;
      if (line.length > 0) this.turns.push(client);
      else this.waiting.delete(client);
      this.running += 1;
      next.start();
    }
  }

  /** Roughly when `ahead` photos will have run, from the running average, in whole seconds. */
  private retryAfter(ahead: number): number {
    const seconds = Math.ceil((this.averageRunMs * Math.max(1, ahead)) / this.limits.concurrency / 1000);
    return Math.min(RETRY_AFTER_BOUNDS_S[1], Math.max(RETRY_AFTER_BOUNDS_S[0], seconds));
  }
}
