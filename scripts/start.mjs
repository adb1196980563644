// `npm start`: install what is missing, build, check configuration, then run gateway + server
// (the server migrates the database at start) on the embedded defaults and print the URLs.
// Node built-ins only until the install has run.
import { existsSync } from 'node:fs';
import { ensureDependencies } from './lib/ensure-deps.mjs';
import { checkNode } from './lib/node-lines.mjs';
import { elapsed, mustRun, npmCommand, run } from './lib/run.mjs';
import { startServices } from './lib/services.mjs';

const started = Date.now();
try {
  checkNode();
  await ensureDependencies();
  console.log('› building web, server and gateway…');
  await mustRun(npmCommand, ['run', 'build', '--silent']);

  if (existsSync('.env')) process.loadEnvFile('.env');
  // Validate both configurations before anything starts: bad config means nothing is half-started.
  for (const app of ['apps/gateway', 'apps/server']) {
    const code = await run(process.execPath, [`${app}/dist/server.js`, '--check-config']);
    if (code !== 0) process.exit(code);
  }

  // Ports and hosts from the environment (or .env): the server follows a moved gateway.
  const services = await startServices({ ...process.env });
  const slug = process.env.PRODUCT_SLUG || 'roots';
  console.log(`\n  Roots is running (ready in ${elapsed(started)}):`);
  console.log(`    product   ${services.serverUrl}/${slug}/`);
  console.log(`    gateway   ${services.gatewayUrl}/`);
  console.log(`    health    ${services.serverUrl}/readyz\n  Press Ctrl+C to stop.\n`);

  const stopAll = () => services.stop();
  process.on('SIGINT', stopAll);
  process.on('SIGTERM', stopAll);
  // If either process dies, stop the other and exit with its code.
  const exitCode = await Promise.race(
    [services.server, services.gateway].map((child) => new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 0)))),
  );
  stopAll();
  process.exit(exitCode);
} catch (error) {
  console.error(`npm start failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
