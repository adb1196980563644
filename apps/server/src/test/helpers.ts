import { sql } from 'drizzle-orm';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../app';
import { loadConfig } from '../config/env';
import { openDatabase, type Database } from '../db/database';

/**
 * The databases every repository-level test runs against: embedded PGlite always, and the real
 * PostgreSQL server that `npm test` starts (TEST_DATABASE_URL).
 */
export function testDatabases(): Array<{ name: string; url: string | undefined }> {
  const list: Array<{ name: string; url: string | undefined }> = [{ name: 'pglite', url: undefined }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) list.push({ name: 'postgres', url });
  else if (process.env.CI) throw new Error('TEST_DATABASE_URL must be set in CI (npm test starts a PostgreSQL cluster)');
  else console.warn('TEST_DATABASE_URL not set: tests run on PGlite only. `npm test` runs them on PostgreSQL too.');
  return list;
}

/**
 * What a suite that needs a real PostgreSQL runs on (issue 26: such suites skipped themselves quietly
 * under a plain `npx vitest run`). Without TEST_DATABASE_URL the suite fails, saying how to get one,
 * unless SKIP_SUITES names `postgres`: then it is skipped because the runner said so.
 */
export function realPostgres(suite: string): { url: string | undefined; skip: boolean } {
  const url = process.env.TEST_DATABASE_URL;
  if (url) return { url, skip: false };
  if (skippedSuites().has('postgres')) return { url: undefined, skip: true };
  throw new Error(
    `${suite} needs a real PostgreSQL: run \`npm test\` (it starts one), or set TEST_DATABASE_URL=postgres://…, ` +
      'or SKIP_SUITES=postgres to skip it knowingly.',
  );
}

/** The real parts the runner asked to go without (`SKIP_SUITES=postgres,chromium`). */
export function skippedSuites(): Set<string> {
  return new Set(
    (process.env.SKIP_SUITES ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

/** A fresh, migrated database: in-memory PGlite, or a fresh database on the real server. */
export async function openTestDatabase(url: string | undefined): Promise<Database> {
  if (!url) {
    const database = await openDatabase({ dataDir: 'memory://' });
    await database.migrate();
    return database;
  }
  // One database per test file keeps test files independent on a shared server.
  const name = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = await openDatabase({ url, dataDir: '' });
  await admin.db.execute(sql.raw(`create database ${name}`));
  await admin.close();
  const scopedUrl = new URL(url);
  scopedUrl.pathname = `/${name}`;
  const database = await openDatabase({ url: scopedUrl.toString(), dataDir: '' });
  await database.migrate();
  return database;
}

/** A minimal built web app: index.html with the server placeholder, one hashed asset. */
export function makeWebDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'roots-web-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, 'images'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><!--roots:head--><title>Roots</title></head><body><div id="root"></div><script type="module" src="./assets/index-AbC123.js"></script></body></html>',
  );
  writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'console.info("app")');
  // As the web build writes them (apps/web/vite.config.ts precompress).
  writeFileSync(join(dir, 'assets', 'index-AbC123.js.br'), brotliCompressSync('console.info("app")'));
  writeFileSync(join(dir, 'assets', 'index-AbC123.js.gz'), gzipSync('console.info("app")'));
  writeFileSync(join(dir, 'images', 'walkthrough-1.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

export async function buildTestApp(options: { env?: Record<string, string>; database: Database; webDist?: string }) {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: options.webDist ?? makeWebDist(),
    ...RELAXED_CLIENT_LIMITS,
    ...options.env,
  });
  return buildApp({ config, database: options.database });
}

/**
 * Per-client limits and the shared merchant-API budget out of the way of suites that sign many users
 * in and buy many times from one loopback address (a storm of 200 duplicate submits among them); the
 * limits themselves are proven with their defaults (modules/auth/sign-in-limits.test.ts,
 * plugins/merchant-api-budget.test.ts).
 */
export const RELAXED_CLIENT_LIMITS = {
  GATEWAY_CLIENT_BUDGET_PER_MINUTE: '100000',
  GATEWAY_SESSION_BUDGET_PER_MINUTE: '100000',
  GATEWAY_CLIENT_PURCHASE_BUDGET_PER_MINUTE: '100000',
  SIGN_IN_CODES_PER_IP_PER_HOUR: '100000',
  SIGN_IN_CODE_RESEND_SECONDS: '0',
  SIGN_IN_CODE_RESENDS_PER_DAY: '100000',
  SIGN_IN_GUESSES_PER_EMAIL_PER_MINUTE: '100000',
  SIGN_IN_GUESSES_PER_IP_PER_HOUR: '100000',
} as const;
