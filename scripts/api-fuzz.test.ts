// Schema-driven fuzzing of both published APIs (issue 17, ADR 114): for every route of
// docs/api/product.openapi.json and docs/api/gateway.openapi.json, generated invalid and boundary
// inputs go through app.inject; no answer may be a 5xx, every error is `{ error, code }`, the
// process stays up, and a route that refused everything wrote nothing.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config/env';
import { openDatabase, type Database } from '../apps/server/src/db/database';
import { MERCHANT_API_ROUTES } from '../apps/server/src/plugins/merchant-api-budget';
import { GatewayProxy } from '../apps/server/src/test/gateway-proxy';
import { buildGatewayApp } from '../apps/gateway/src/app';
import { loadGatewayConfig } from '../apps/gateway/src/config/env';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  minLength?: number;
  pattern?: string;
};
type Operation = {
  parameters?: Array<{ in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
type OpenApi = { paths: Record<string, Record<string, Operation>> };

/** Generated values per route; the whole run stays around a minute on two shared cores. */
const RUNS_PER_ROUTE = 20;
const SEED = 17;
const EMAIL = 'fuzz@example.com';

/** A plausible value for a schema: the base that mutations then break one field at a time. */
/** True when `value` has no lone surrogate (what `encodeURIComponent` refuses). */
function isWellFormed(value: string): boolean {
  try {
    encodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
}

function sample(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (variants?.length) return sample(variants.find((variant) => variant.type !== 'null') ?? variants[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((key) => [key, sample(schema.properties?.[key], depth + 1)]));
    case 'array':
      return [sample(schema.items, depth + 1)];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'email') return EMAIL;
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'date') return '2026-01-05';
      if (schema.format === 'date-time') return '2026-01-05T12:00:00.000Z';
      if (schema.format === 'uri') return 'https://example.com/';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return 'x';
  }
}

/** Hostile strings: NUL, lone surrogates, bidi overrides, combining marks, huge, path tricks. */
const edgeString = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\uD800',
    '\uDFFF\uD800',
    '\u202Eevil',
    '\uFEFF',
    'e\u0301\u0301\u0301',
    '😀'.repeat(50),
    '../../etc/passwd',
    '%00',
    '<script>alert(1)</script>',
    "' or 1=1 --",
    '',
    ' ',
    '__proto__',
  ),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.nat({ max: 300_000 }).map((length) => 'x'.repeat(length)),
);
const edgeNumber = fc.oneof(
  fc.constantFrom(0, -1, -0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.1, 2 ** 31, -(2 ** 63)),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const wrongValue = fc.oneof(edgeString, edgeNumber, fc.boolean(), fc.constant(null), fc.anything({ maxDepth: 3 }));

/** Set into every body field in turn (deterministic, beside the random cases). */
const FIELD_EDGE_VALUES: unknown[] = ['a\u0000b', '\uD800', 'x'.repeat(100_000), '', -1, 1e308, null, {}, []];

type Mutation = { kind: 'body'; body: unknown } | { kind: 'raw'; payload: string; contentType: string };

/** One generated request body for a route whose body schema is `schema`. */
function bodyArbitrary(schema: JsonSchema | undefined, bodyLimitBytes: number): fc.Arbitrary<Mutation> {
  const base = sample(schema);
  const keys = schema?.properties ? Object.keys(schema.properties) : [];
  const asBody = (body: unknown): Mutation => ({ kind: 'body', body });
  const arbitraries: Array<fc.Arbitrary<Mutation>> = [
    fc.anything({ maxDepth: 3 }).map(asBody),
    fc.constant(asBody(base)),
    fc.constant<Mutation>({ kind: 'raw', payload: '{"unterminated": ', contentType: 'application/json' }),
    fc.constant<Mutation>({ kind: 'raw', payload: 'not json at all', contentType: 'application/json' }),
    fc.constant<Mutation>({ kind: 'raw', payload: JSON.stringify(base), contentType: 'text/plain' }),
    fc.constant<Mutation>({ kind: 'raw', payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' }),
    fc.constant<Mutation>({ kind: 'raw', payload: '--x\r\n\r\n--x--', contentType: 'multipart/form-data; boundary=x' }),
    fc.constant<Mutation>({ kind: 'raw', payload: `{"a":"${'x'.repeat(bodyLimitBytes + 1024)}"}`, contentType: 'application/json' }),
    fc.constant<Mutation>({ kind: 'raw', payload: '{"a":"\\u0000"}', contentType: 'application/json; charset=utf-16' }),
    fc.constant<Mutation>({ kind: 'raw', payload: `${'['.repeat(5_000)}${']'.repeat(5_000)}`, contentType: 'application/json' }),
  ];
  if (base && typeof base === 'object' && !Array.isArray(base)) {
    const record = base as Record<string, unknown>;
    arbitraries.push(
      fc
        .record({ extra: fc.string({ maxLength: 20 }), value: wrongValue })
        .map(({ extra, value }) => asBody({ ...record, [extra]: value })),
    );
    if (keys.length > 0) {
      const key = fc.constantFrom(...keys);
      arbitraries.push(
        fc.record({ key, value: wrongValue }).map(({ key: name, value }) => asBody({ ...record, [name]: value })),
        key.map((name) => asBody(Object.fromEntries(Object.entries(record).filter(([k]) => k !== name)))),
        fc.record({ key, value: edgeString }).map(({ key: name, value }) => asBody({ ...record, [name]: value })),
      );
    }
  }
  return fc.oneof(...arbitraries);
}

/** Fills `{name}` path parameters with plausible or hostile values. */
function pathArbitrary(path: string): fc.Arbitrary<string> {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  if (names.length === 0) return fc.constant(path);
  const segment = fc.oneof(
    fc.constant(randomUUID()),
    fc.constant(EMAIL),
    // A path segment is percent-encoded first: only well-formed strings can be (lone surrogates go in bodies).
    edgeString.filter((value) => value.length < 5_000 && isWellFormed(value)),
  );
  return fc
    .array(segment, { minLength: names.length, maxLength: names.length })
    .map((values) => names.reduce((url, name, index) => url.replace(`{${name}}`, encodeURIComponent(values[index]!)), path));
}

/** Query strings: the declared parameters with hostile values, or unknown ones. */
function queryArbitrary(operation: Operation): fc.Arbitrary<Record<string, string>> {
  const names = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const value = edgeString.filter((text) => text.length < 5_000);
  return fc.oneof(
    fc.constant({}),
    names.length > 0 ? fc.dictionary(fc.constantFrom(...names), value, { maxKeys: names.length }) : fc.constant({}),
    fc.dictionary(fc.string({ maxLength: 10 }), value, { maxKeys: 3 }),
  );
}

type Target = {
  name: string;
  app: FastifyInstance;
  document: OpenApi;
  bodyLimitBytes: number;
  headersFor: (path: string) => Record<string, string>;
  /** Rows in every table (to prove a refused request wrote nothing). */
  rowCounts: () => Promise<string>;
};

/**
 * Tables whose rows a refused request may add by design: the gateway keeps the answer (any status
 * below 500) of a request that passed validation and authentication under its idempotency key, so a
 * retry replays it (apps/gateway idempotency.ts). That is the answer's record, not business state.
 * The shared rate-limit counters (ADR 116) count every request, refused or not: that is their job.
 */
const REPLAY_RECORD_TABLES = new Set(['idempotency_records', 'rate_limit_hits']);

async function countRows(database: { execute: (query: ReturnType<typeof sql>) => Promise<unknown> }): Promise<string> {
  const tables = (await database.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  )) as { rows?: Array<{ table_name: string }> } | Array<{ table_name: string }>;
  const names = (Array.isArray(tables) ? tables : (tables.rows ?? [])).map((row) => row.table_name);
  const counts: string[] = [];
  for (const table of names.filter((name) => !REPLAY_RECORD_TABLES.has(name))) {
    const result = (await database.execute(sql.raw(`select count(*)::int as n from "${table}"`))) as
      { rows?: Array<{ n: number }> } | Array<{ n: number }>;
    const [row] = Array.isArray(result) ? result : (result.rows ?? []);
    counts.push(`${table}=${row?.n}`);
  }
  return counts.join(',');
}

describe('schema-driven fuzzing of both APIs (ADR 114)', () => {
  let database: Database;
  let server: FastifyInstance;
  let gateway: Awaited<ReturnType<typeof buildGatewayApp>>;
  const targets: Target[] = [];
  let proxy: GatewayProxy;

  beforeAll(async () => {
    gateway = await buildGatewayApp({
      config: loadGatewayConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        GATEWAY_DATA_DIR: 'memory://',
        GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000',
      }),
    });
    const gatewayUrl = await gateway.listen({ host: '127.0.0.1', port: 0 });
    // The product reaches the gateway through a proxy that counts merchant-API calls (issue 22's budget).
    proxy = new GatewayProxy(gatewayUrl);
    await proxy.start();
    database = await openDatabase({ dataDir: 'memory://' });
    await database.migrate();
    server = await buildApp({
      config: loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        GATEWAY_URL: proxy.url,
        RATE_LIMIT_PER_MINUTE: '1000000',
        EMAIL_RATE_LIMIT_PER_HOUR: '1000000',
        FACE_CHECK_RATE_LIMIT_PER_MINUTE: '1000000',
        GATEWAY_CLIENT_BUDGET_PER_MINUTE: '100000',
        SIGN_IN_CODES_PER_IP_PER_HOUR: '100000',
        SIGN_IN_CODE_RESEND_SECONDS: '0',
        SIGN_IN_CODE_RESENDS_PER_DAY: '100000',
        SIGN_IN_GUESSES_PER_EMAIL_PER_MINUTE: '100000',
        SIGN_IN_GUESSES_PER_IP_PER_HOUR: '100000',
        GATEWAY_SESSION_BUDGET_PER_MINUTE: '1000000',
        GATEWAY_CLIENT_PURCHASE_BUDGET_PER_MINUTE: '1000000',
        ANALYSIS_WORKERS: '1',
        BILLING_SCHEDULER_ENABLED: 'false',
      }),
      database,
    });
    const merchantKey = gateway.gateway.config.GATEWAY_MERCHANT_SECRET;
    const session = (
      await gateway.inject({
        method: 'POST',
        url: '/merchant/v1/sessions',
        headers: { 'x-api-key': merchantKey, 'idempotency-key': randomUUID() },
        payload: { amount: { value: 2499, currency: 'USD' }, holderReference: 'fuzz-holder' },
      })
    ).json<{ bearerToken: string }>();
    const gatewayOrigin = new URL(gatewayUrl).origin;
    targets.push(
      {
        name: 'product',
        app: server,
        document: (await server.inject('/api/openapi.json')).json<OpenApi>(),
        bodyLimitBytes: 1_048_576,
        headersFor: () => ({}),
        rowCounts: () => countRows(database.db),
      },
      {
        name: 'gateway',
        app: gateway,
        document: (await gateway.inject('/openapi.json')).json<OpenApi>(),
        bodyLimitBytes: 65_536,
        // Authenticated as the SDK or the merchant, so the fuzz reaches past the auth layer.
        headersFor: (path) => ({
          'idempotency-key': randomUUID(),
          ...(path.startsWith('/merchant/')
            ? { 'x-api-key': merchantKey }
            : {
                authorization: `Bearer ${session.bearerToken}`,
                'x-client-version': '5.26.0',
                'x-client-type': 'web',
                origin: gatewayOrigin,
              }),
        }),
        rowCounts: () => countRows(gateway.gateway.database.db),
      },
    );
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await proxy?.stop();
    await gateway?.close();
    await database?.close();
  });

  it('never answers 5xx, always { error, code } on errors, stays up, and writes nothing on a refused request', async () => {
    let routes = 0;
    let requests = 0;
    const failures: string[] = [];
    const reachedGateway = new Set<string>();
    for (const target of targets) {
      for (const [path, operations] of Object.entries(target.document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          routes += 1;
          const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
          const hasBody = !['get', 'head', 'delete'].includes(method);
          const generated = fc.sample(
            fc.record({
              url: pathArbitrary(path),
              query: queryArbitrary(operation),
              body: hasBody ? bodyArbitrary(bodySchema, target.bodyLimitBytes) : fc.constant(undefined),
            }),
            { numRuns: RUNS_PER_ROUTE, seed: SEED + routes },
          );
          // Besides the random ones: each field of a plausible body, one at a time, set to each edge value.
          if (hasBody && bodySchema?.properties) {
            const base = sample(bodySchema) as Record<string, unknown>;
            for (const key of Object.keys(bodySchema.properties)) {
              for (const value of FIELD_EDGE_VALUES) {
                generated.push({
                  url: fc.sample(pathArbitrary(path), { numRuns: 1, seed: SEED })[0]!,
                  query: {},
                  body: { kind: 'body', body: { ...base, [key]: value } },
                });
              }
            }
          }
          for (const parameter of (operation.parameters ?? []).filter((p) => p.in === 'query')) {
            generated.push({
              url: fc.sample(pathArbitrary(path), { numRuns: 1, seed: SEED })[0]!,
              query: { [parameter.name]: 'a\u0000b' },
              body: undefined,
            });
          }
          const before = await target.rowCounts();
          const merchantCallsBefore = proxy.merchantCalls;
          let everyRequestRefused = true;
          for (const input of generated) {
            const options: InjectOptions = {
              method: method.toUpperCase() as InjectOptions['method'],
              url: input.url,
              query: input.query,
              headers: { ...target.headersFor(path) },
            };
            if (input.body?.kind === 'body' && input.body.body !== undefined) {
              options.payload = JSON.stringify(input.body.body);
              options.headers = { ...options.headers, 'content-type': 'application/json' };
            } else if (input.body?.kind === 'raw') {
              options.payload = input.body.payload;
              options.headers = { ...options.headers, 'content-type': input.body.contentType };
            }
            const response = await target.app.inject(options);
            requests += 1;
            const where = `${target.name} ${method.toUpperCase()} ${path} (${input.url.slice(0, 80)}, ${String(options.payload ?? '').slice(0, 120)})`;
            if (response.statusCode >= 500) failures.push(`${where}: ${response.statusCode} ${response.body.slice(0, 200)}`);
            if (response.statusCode < 400) everyRequestRefused = false;
            else {
              const body = (() => {
                try {
                  return response.json<Record<string, unknown>>();
                } catch {
                  return undefined;
                }
              })();
              if (typeof body?.error !== 'string' || typeof body?.code !== 'string') {
                failures.push(`${where}: ${response.statusCode} is not { error, code }: ${response.body.slice(0, 200)}`);
              }
            }
          }
          // Every product route that reaches the gateway's merchant API is inside the budget (ADR 137).
          if (target.name === 'product' && proxy.merchantCalls > merchantCallsBefore) {
            const route = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
            reachedGateway.add(route);
            if (!(route in MERCHANT_API_ROUTES)) failures.push(`${route}: calls the gateway's merchant API outside the budget`);
          }
          const after = await target.rowCounts();
          if (everyRequestRefused && after !== before) {
            const changed = after.split(',').filter((entry) => !before.split(',').includes(entry));
            failures.push(`${target.name} ${method.toUpperCase()} ${path}: refused every request, yet rows changed: ${changed.join(', ')}`);
          }
        }
      }
      // The process is still up and serving.
      expect((await target.app.inject('/healthz')).statusCode).toBe(200);
    }
    const fiveHundreds = failures.filter((failure) => / 5\d\d /.test(failure)).length;
    console.info(`fuzz: ${targets.length} APIs, ${routes} routes, ${requests} requests, ${fiveHundreds} × 5xx`);
    expect(failures).toEqual([]);
    expect(routes).toBeGreaterThan(50);
    // The budget check above saw real gateway traffic, not none.
    expect([...reachedGateway]).toEqual(expect.arrayContaining(['GET /init/session', 'POST /init/session']));
  }, 300_000);
});
