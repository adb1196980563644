import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../config/env';
import { openDatabase } from '../db/database';
import { normalizeEmail } from '../lib/mask';
import { AdminRepository } from '../modules/admin/admin.repository';

/**
 * `npm run operator:add -- <email>`: makes `email` an operator of this installation's database
 * (DATABASE_URL, else the PGlite database in DATA_DIR; `.env` is read as by the server). The
 * operator then signs in with the ordinary email code and opens `/{slug}/admin`.
 * With PGlite, run it while the server is stopped: an embedded database has one process at a time.
 */
async function main(): Promise<number> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const parsed = z.email().max(320).safeParse(process.argv[2]);
  if (!parsed.success) {
    console.error('usage: npm run operator:add -- <email>');
    return 64; // EX_USAGE
  }
  const email = normalizeEmail(parsed.data);
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`operator:add: ${error.message}`);
      return 78; // EX_CONFIG
    }
    throw error;
  }
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await database.migrate();
    const added = await new AdminRepository().addOperator(database.db, {
      email,
      addedBy: `command:${userInfo().username}`,
      now: new Date(),
    });
    console.info(added ? `operator:add: ${email} is now an operator` : `operator:add: ${email} already is an operator`);
    return 0;
  } finally {
    await database.close();
  }
}

process.exitCode = await main();
