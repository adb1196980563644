/**
 * Gateway sandbox benchmark: authorize → final state under concurrent load on loopback.
 *
 *   npx tsx bench/gateway/run.ts [--json] [--concurrency 32] [--seconds 10]
 *
 * Starts the gateway as a child process (in-memory PGlite, rate limit lifted), then C workers
 * each loop: create a session (merchant API), tokenize a card (vault), save the instrument,
 * authorize, and poll until the status is final. The mix: 80 % success, 10 % decline, 10 % slow
 * authorization (GATEWAY_SLOW_AUTH_POLLS=3, polled back-to-back). Latency is measured from the
 * authorize request to the first final status. A second phase runs autocannon on the poll
 * endpoint. With --json the last line is one JSON object. GATEWAY_DATABASE_URL in the environment
 * runs the gateway on PostgreSQL instead of PGlite.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import autocannon from 'autocannon';

const args = process.argv.slice(2);
const json = args.includes('--json');
const option = (name: string, fallback: number): number => {
  const index = args.indexOf(`--${name}`);
  const value = index >= 0 ? Number(args[index + 1]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const CONCURRENCY = option('concurrency', 32);
const DURATION_MS = option('seconds', 10) * 1000;
const POLL_PHASE_SECONDS = option('poll-seconds', 5);
const MERCHANT_KEY = 'sk_bench_merchant_secret_0123456789';
const FINAL = new Set(['authorizePending', 'authorizeSuccessful', 'authorizeFailed']);
const CARDS = [
  ...Array.from({ length: 8 }, () => '4242424242424242'),
  '4000000000000002', // decline
  '4000000000000036', // slow authorization
];

const log = (...values: unknown[]) => {
  if (!json) console.log(...values);
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function startGateway(port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/gateway/src/server.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      GATEWAY_PORT: String(port),
      GATEWAY_DATA_DIR: 'memory://',
      GATEWAY_RATE_LIMIT_PER_MINUTE: '100000000',
      GATEWAY_SLOW_AUTH_POLLS: '3',
      GATEWAY_MERCHANT_SECRET: MERCHANT_KEY,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600; attempt += 1) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { url, stop: () => child.kill('SIGTERM') };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('gateway did not start');
}

async function post<T>(url: string, headers: Record<string, string>, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

type Session = {
  bearerToken: string;
  holderReference: string;
  vaultProviderConfigId: string;
  links: Record<string, string>;
  amount: unknown;
};

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function main(): Promise<void> {
  const gateway = await startGateway(await freePort());
  const merchant = { 'x-api-key': MERCHANT_KEY };
  const latenciesMs: number[] = [];
  const outcomes: Record<string, number> = {};
  let polls = 0;
  let errors = 0;
  let pollTarget: { url: string; token: string } | undefined;

  async function onePayment(card: string): Promise<void> {
    const session = await post<Session>(`${gateway.url}/merchant/v1/sessions`, merchant, {
      amount: { value: 2499, currency: 'USD' },
      holderReference: `bench-${randomUUID()}`,
    });
    const auth = { authorization: `Bearer ${session.bearerToken}` };
    const token = await post<{ token: string }>(session.links.tokenize ?? '', auth, {
      cardNumber: card,
      expiryMonth: '12',
      expiryYear: '2034',
      cvv: '123',
    });
    const instrument = await post<{ id: string }>(session.links.saveInstrument ?? '', auth, {
      holderReference: session.holderReference,
      paymentMethod: 'card',
      data: { encryptedData: token.token, vaultProviderConfigId: session.vaultProviderConfigId },
    });
    const started = performance.now();
    let execution = await post<{ status: string }>(session.links.authorize ?? '', auth, {
      amount: session.amount,
      paymentComposition: [{ paymentMethodCode: 'card', integrationType: 'api', paymentInstrumentId: instrument.id }],
    });
    while (!FINAL.has(execution.status)) {
      polls += 1;
      const response = await fetch(session.links.execution ?? '', { headers: auth });
      execution = (await response.json()) as { status: string };
    }
    latenciesMs.push(performance.now() - started);
    outcomes[execution.status] = (outcomes[execution.status] ?? 0) + 1;
    pollTarget ??= { url: session.links.execution ?? '', token: session.bearerToken };
  }

  log(`gateway ${gateway.url}; ${CONCURRENCY} workers for ${DURATION_MS / 1000} s on ${cpus().length} CPUs…`);
  const deadline = performance.now() + DURATION_MS;
  const phaseStarted = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const card = CARDS[next % CARDS.length] ?? '4242424242424242';
        next += 1;
        try {
          await onePayment(card);
        } catch (error) {
          errors += 1;
          if (errors <= 3) console.error(error instanceof Error ? error.message : error);
        }
      }
    }),
  );
  const elapsedSeconds = (performance.now() - phaseStarted) / 1000;
  const sorted = [...latenciesMs].sort((a, b) => a - b);

  let pollPhase: { requestsPerSecond: number; p50Ms: number; p99Ms: number; non2xx: number } | undefined;
  if (pollTarget) {
    log(`autocannon on GET execution for ${POLL_PHASE_SECONDS} s…`);
    const result = await autocannon({
      url: pollTarget.url,
      connections: CONCURRENCY,
      duration: POLL_PHASE_SECONDS,
      headers: { authorization: `Bearer ${pollTarget.token}` },
    });
    pollPhase = { requestsPerSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99, non2xx: result.non2xx };
  }
  gateway.stop();

  const summary = {
    bench: 'gateway-authorize-to-final',
    concurrency: CONCURRENCY,
    seconds: Math.round(elapsedSeconds * 10) / 10,
    payments: latenciesMs.length,
    errors,
    outcomes,
    polls,
    paymentsPerSecond: Math.round((latenciesMs.length / elapsedSeconds) * 10) / 10,
    authorizeToFinalMs: {
      p50: Math.round(percentile(sorted, 50) * 10) / 10,
      p99: Math.round(percentile(sorted, 99) * 10) / 10,
      max: Math.round((sorted.at(-1) ?? 0) * 10) / 10,
    },
    pollEndpoint: pollPhase,
    database: process.env.GATEWAY_DATABASE_URL ? 'postgres' : 'pglite',
    node: process.version,
    cpus: cpus().length,
  };
  if (json) {
    console.log(JSON.stringify(summary));
    return;
  }
  console.log(
    `payments (session + tokenize + save + authorize → final): ${summary.payments} in ${summary.seconds} s = ${summary.paymentsPerSecond}/s, errors ${errors}`,
  );
  console.log(`outcomes: ${JSON.stringify(outcomes)}; polls: ${polls}`);
  console.log(
    `authorize → final latency: p50 ${summary.authorizeToFinalMs.p50} ms, p99 ${summary.authorizeToFinalMs.p99} ms, max ${summary.authorizeToFinalMs.max} ms`,
  );
  if (pollPhase)
    console.log(
      `GET execution (autocannon, ${CONCURRENCY} connections): ${pollPhase.requestsPerSecond} req/s, p50 ${pollPhase.p50Ms} ms, p99 ${pollPhase.p99Ms} ms, non-2xx ${pollPhase.non2xx}`,
    );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
