#!/usr/bin/env node
// Launcher kept in git so npm links the bin at install time; the CLI itself is built to dist/.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli/roots-analyze.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('roots-analyze: the analysis package is not built yet. Run `npm run build` (or `npm start`) first.');
  process.exit(1);
}
await import(cli.href);
