import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';

/**
 * The small load balancer of the cluster scenario: each request goes to the next backend in turn.
 * A backend that refuses the connection (down, restarting) is skipped and the request goes to the
 * next one (it never reached the dead one, so this is safe for any method); a backend that dies
 * mid-request answers 502, as a real balancer would. The client's `x-forwarded-for` is passed on
 * (the servers trust this proxy) and added when absent.
 */
export class RoundRobinProxy {
  private server: Server | undefined;
  private next = 0;
  url = '';

  constructor(private readonly backends: string[]) {}

  async start(): Promise<string> {
    this.server = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const body = Buffer.concat(chunks);
        const start = this.next++;
        const tryBackend = (attempt: number) => {
          if (attempt >= this.backends.length) {
            outgoing.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
            outgoing.end(JSON.stringify({ error: 'proxy: no backend up', code: 'SERVICE_UNAVAILABLE' }));
            return;
          }
          const backend = this.backends[(start + attempt) % this.backends.length] as string;
          const headers = {
            ...incoming.headers,
            'x-forwarded-for': incoming.headers['x-forwarded-for'] ?? '127.0.0.1',
            'content-length': String(body.length),
          };
          const forward = httpRequest(
            new URL(incoming.url ?? '/', backend),
            { method: incoming.method, headers },
            (answer: IncomingMessage) => {
              outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(outgoing);
              answer.on('error', () => outgoing.destroy());
            },
          );
          forward.on('error', (error: NodeJS.ErrnoException) => {
            if (error.code === 'ECONNREFUSED') return tryBackend(attempt + 1);
            if (outgoing.headersSent) return outgoing.destroy();
            outgoing.writeHead(502, { 'content-type': 'application/json' });
            outgoing.end(JSON.stringify({ error: 'proxy: backend failed', code: 'INTERNAL_ERROR' }));
          });
          forward.end(body);
        };
        tryBackend(0);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this.url;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
