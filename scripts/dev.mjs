// `npm run dev`: gateway and server with reload (tsx watch) and the Vite dev server, wired so the
// whole journey works through the Vite port (e2e/dev-server.spec.ts buys a plan through it):
// - the browser's origin is Vite's, so the server's PUBLIC_URL (links in emails, the checkout's
//   return pages, the origin check of cookie requests) is Vite's too;
// - the gateway lets that origin frame its card fields and call its API (GATEWAY_MERCHANT_ORIGINS);
// - Vite passes every server path on to the server (apps/web/vite.config.ts) and puts the server's
//   own public config into the page.
// Each can still be set by hand; `.env` is read as by `npm start`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

if (existsSync('.env')) process.loadEnvFile('.env');
const host = process.env.HOST ?? '127.0.0.1';
const serverUrl = `http://${host}:${process.env.PORT ?? 3000}`;
const webPort = process.env.WEB_DEV_PORT ?? '5173';
const webOrigin = `http://127.0.0.1:${webPort}`;
const env = {
  ...process.env,
  WEB_DEV_PORT: webPort,
  PUBLIC_URL: process.env.PUBLIC_URL ?? webOrigin,
  GATEWAY_MERCHANT_ORIGINS: process.env.GATEWAY_MERCHANT_ORIGINS ?? `${webOrigin},${serverUrl}`,
  ROOTS_SERVER_URL: process.env.ROOTS_SERVER_URL ?? serverUrl,
  // The gateway's signed webhooks reach the server, as with `npm start` (scripts/lib/services.mjs).
  GATEWAY_WEBHOOK_URLS: process.env.GATEWAY_WEBHOOK_URLS ?? `${serverUrl}/api/gateway/webhooks`,
};

const children = ['apps/gateway', 'apps/server', 'apps/web'].map((workspace) =>
  spawn('npm', ['run', 'dev', '-w', workspace], { stdio: 'inherit', env }),
);
console.log(`roots dev: open ${env.PUBLIC_URL}/${process.env.PRODUCT_SLUG ?? 'roots'}/ (Vite, reloads on change)`);
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
