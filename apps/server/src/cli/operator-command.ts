import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { OPERATOR_ROLES, type OperatorRole } from '@roots/contracts/admin';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../config/env';
import { openDatabase } from '../db/database';
import { systemClock } from '../lib/clock';
import { normalizeEmail } from '../lib/mask';
import { SharedRateLimitCounters } from '../lib/shared-rate-limit';
import { OperatorAccounts, type Actor } from '../modules/admin/operator-accounts';
import { SecondFactorLimit, UNSCRAPED_SECOND_FACTOR_METRICS } from '../modules/admin/second-factor-limit';

export const EX_USAGE = 64;
const EX_CONFIG = 78;

/** An email argument, normalized; undefined when it is not an email. */
export function emailArgument(value: string | undefined): string | undefined {
  const parsed = z.email().max(320).safeParse(value);
  return parsed.success ? normalizeEmail(parsed.data) : undefined;
}

/** A role argument; undefined when it is not one of the roles. */
export function roleArgument(value: string | undefined): OperatorRole | undefined {
  return OPERATOR_ROLES.find((role) => role === value);
}

/**
 * Runs an `operator:*` command against this installation's database (DATABASE_URL, else the
 * PGlite database in DATA_DIR; `.env` is read as by the server), migrated first. The audit trail
 * names the command's OS user as `command:<user>`. With PGlite, run it while the server is stopped:
 * an embedded database has one process at a time.
 */
export async function runOperatorCommand(
  name: string,
  work: (accounts: OperatorAccounts, actor: Actor) => Promise<number>,
): Promise<number> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${name}: ${error.message}`);
      return EX_CONFIG;
    }
    throw error;
  }
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await database.migrate();
    const accounts = new OperatorAccounts({
      db: database.db,
      clock: systemClock,
      sealSecret: config.APP_SECRET,
      issuer: config.PRODUCT_NAME,
      // The commands never check an authenticator code; the limit is the servers' own, shared through the database.
      secondFactorLimit: new SecondFactorLimit({
        counters: new SharedRateLimitCounters(database.db, systemClock),
        maxFailures: config.OPERATOR_TOTP_MAX_FAILURES,
        lockMinutes: config.OPERATOR_TOTP_LOCK_MINUTES,
        metrics: UNSCRAPED_SECOND_FACTOR_METRICS,
      }),
    });
    return await work(accounts, { email: `command:${userInfo().username}` });
  } finally {
    await database.close();
  }
}

/**
 * A command of one email argument (`npm run <name> -- <email>`): `act` returns false when the email
 * is no operator (exit code 1); `done` says what changed.
 */
export async function emailCommand(
  name: string,
  act: (accounts: OperatorAccounts, actor: Actor, email: string) => Promise<boolean>,
  done: (email: string) => string,
): Promise<number> {
  const email = emailArgument(process.argv[2]);
  if (!email || process.argv.length !== 3) {
    console.error(`usage: npm run ${name} -- <email>`);
    return EX_USAGE;
  }
  return runOperatorCommand(name, async (accounts, actor) => {
    if (!(await act(accounts, actor, email))) {
      console.error(`${name}: ${email} is not an operator`);
      return 1;
    }
    console.info(`${name}: ${done(email)}`);
    return 0;
  });
}
