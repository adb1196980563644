import { createServer, request as httpRequest, type Server } from 'node:http';

export type ChargeRecord = { idempotencyKey: string; executionId: string; status: string; replayed: boolean; amount: number };

/**
 * A loopback HTTP proxy in front of the real gateway: it forwards every request untouched, records
 * merchant charges (what the gateway really executed), and can turn the next N renewal charges into
 * soft declines by asking the gateway for its insufficient-funds trigger amount (README: 4000.00), or
 * into hard declines with its card-declined one (2500.00).
 * The gateway still answers every request; nothing is faked.
 */
export class GatewayProxy {
  readonly charges: ChargeRecord[] = [];
  /** Server-to-server calls (merchant key) that reached the gateway through this proxy. */
  merchantCalls = 0;
  private declines = 0;
  private declinePrefix = '';
  private declineAmount = 400_000;
  private server: Server | undefined;
  url = '';

  constructor(private readonly target: string) {}

  /**
   * The next `count` merchant charges whose idempotency key starts with `keyPrefix` are declined by
   * the gateway: with insufficient_funds (`soft`, the default), or card_declined (`hard`). A call
   * replaces the one before.
   */
  declineNextCharges(count: number, keyPrefix = '', kind: 'soft' | 'hard' = 'soft'): void {
    this.declines = count;
    this.declinePrefix = keyPrefix;
    this.declineAmount = kind === 'soft' ? 400_000 : 250_000;
  }

  /** Executions the gateway created for merchant charges (replays excluded). */
  distinctCharges(filter: (record: ChargeRecord) => boolean = () => true): Set<string> {
    return new Set(this.charges.filter((record) => !record.replayed && filter(record)).map((record) => record.executionId));
  }

  async start(): Promise<string> {
    this.server = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        if (incoming.headers['x-api-key'] !== undefined) this.merchantCalls += 1;
        let body = Buffer.concat(chunks);
        const isCharge = incoming.method === 'POST' && incoming.url === '/merchant/v1/charges';
        if (isCharge && this.declines > 0 && String(incoming.headers['idempotency-key'] ?? '').startsWith(this.declinePrefix)) {
          this.declines -= 1;
          const json = JSON.parse(body.toString('utf8')) as { amount: { value: number } };
          json.amount.value = this.declineAmount;
          body = Buffer.from(JSON.stringify(json));
        }
        const headers = { ...incoming.headers, 'content-length': String(body.length) };
        const target = new URL(incoming.url ?? '/', this.target);
        const forward = httpRequest(target, { method: incoming.method, headers }, (answer) => {
          const answerChunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => answerChunks.push(chunk));
          answer.on('end', () => {
            const answerBody = Buffer.concat(answerChunks);
            if (isCharge && answer.statusCode === 201) {
              const execution = JSON.parse(answerBody.toString('utf8')) as { id: string; status: string; amount: { value: number } };
              this.charges.push({
                idempotencyKey: String(incoming.headers['idempotency-key']),
                executionId: execution.id,
                status: execution.status,
                replayed: answer.headers['idempotent-replayed'] === 'true',
                amount: execution.amount.value,
              });
            }
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            outgoing.end(answerBody);
          });
        });
        forward.on('error', () => {
          outgoing.writeHead(502, { 'content-type': 'application/json' });
          outgoing.end(JSON.stringify({ error: 'proxy: gateway unreachable', code: 'INTERNAL_ERROR' }));
        });
        forward.end(body);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this.url;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
