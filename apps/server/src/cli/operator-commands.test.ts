import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database';
import { adminAudit, authSessions, authUsers, operators } from '../db/schema';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** Runs `npm run operator:<name>` as an operator would (the script itself, through tsx), on `dataDir`. */
function command(
  name: 'add' | 'remove' | 'role' | 'reset-authenticator',
  args: string[],
  dataDir: string,
): { status: number; output: string } {
  try {
    const output = execFileSync(process.execPath, ['--import', 'tsx', join(HERE, `operator-${name}.ts`), ...args], {
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { status: 0, output };
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string };
    return { status: failed.status, output: `${failed.stdout}${failed.stderr}` };
  }
}

/** An open session of `email` (its user made when missing), as a sign-in leaves it. */
async function userWithSession(database: Database, userId: string, email: string, sessionId: string): Promise<void> {
  const now = new Date();
  await database.db
    .insert(authUsers)
    .values({ id: userId, name: '', email, emailVerified: true, createdAt: now, updatedAt: now })
    .onConflictDoNothing();
  await database.db.insert(authSessions).values({
    id: sessionId,
    token: `token-${sessionId}`,
    userId,
    expiresAt: new Date(now.getTime() + 86_400_000),
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * The operator commands (issue 25): add with a role (the first operator an owner), change the role,
 * remove, forget a lost authenticator; each is in the audit trail under the command's OS user, and
 * each but add ends the operator's sessions.
 */
describe('operator commands', () => {
  it(
    'add, role, remove and reset-authenticator write the operators table and the audit trail and end sessions',
    { timeout: 120_000 },
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'roots-operator-commands-'));
      expect(command('add', ['First@Example.com'], dataDir)).toMatchObject({ status: 0, output: expect.stringContaining('(owner)') });
      expect(command('add', ['second@example.com'], dataDir)).toMatchObject({ status: 0, output: expect.stringContaining('(support)') });
      expect(command('add', ['third@example.com', '--role', 'viewer'], dataDir).status).toBe(0);
      expect(command('add', ['fourth@example.com', '--role', 'admin'], dataDir).status).toBe(64);
      expect(command('role', ['second@example.com', 'root'], dataDir).status).toBe(64);

      // An open session of the second operator, as a sign-in leaves it.
      let database = await openDatabase({ dataDir });
      const now = new Date();
      await userWithSession(database, 'u2', 'second@example.com', 's2');
      await database.close();

      expect(command('role', ['second@example.com', 'viewer'], dataDir)).toMatchObject({
        status: 0,
        output: expect.stringContaining('is now viewer (was support)'),
      });
      database = await openDatabase({ dataDir });
      expect(await database.db.select().from(authSessions).where(eq(authSessions.userId, 'u2'))).toHaveLength(0);
      await userWithSession(database, 'u2', 'second@example.com', 's3');
      await database.close();

      expect(command('remove', ['second@example.com'], dataDir).status).toBe(0);
      expect(command('remove', ['second@example.com'], dataDir).status).toBe(1);

      // A lost phone: the third operator's authenticator is forgotten and their session ends.
      database = await openDatabase({ dataDir });
      await database.db
        .update(operators)
        .set({ totpSealed: 'sealed-secret', totpLastStep: 123, totpEnrolledAt: now })
        .where(eq(operators.email, 'third@example.com'));
      await userWithSession(database, 'u3', 'third@example.com', 's4');
      await database.close();
      expect(command('reset-authenticator', ['Third@Example.com'], dataDir)).toMatchObject({
        status: 0,
        output: expect.stringContaining('sets up a new authenticator'),
      });
      expect(command('reset-authenticator', ['nobody@example.com'], dataDir).status).toBe(1);
      expect(command('reset-authenticator', ['not-an-email'], dataDir).status).toBe(64);

      database = await openDatabase({ dataDir });
      try {
        expect(await database.db.select().from(authSessions).where(eq(authSessions.userId, 'u2'))).toHaveLength(0);
        const rows = await database.db
          .select({ email: operators.email, role: operators.role })
          .from(operators)
          .orderBy(asc(operators.email));
        expect(rows).toEqual([
          { email: 'first@example.com', role: 'owner' },
          { email: 'third@example.com', role: 'viewer' },
        ]);
        const audit = await database.db.select().from(adminAudit).orderBy(asc(adminAudit.createdAt));
        expect(audit.map((entry) => [entry.action, entry.detail.operator])).toEqual([
          ['operator.add', 'first@example.com'],
          ['operator.add', 'second@example.com'],
          ['operator.add', 'third@example.com'],
          ['operator.role_change', 'second@example.com'],
          ['operator.remove', 'second@example.com'],
          ['operator.second_factor_reset', 'third@example.com'],
        ]);
        const [third] = await database.db.select().from(operators).where(eq(operators.email, 'third@example.com'));
        expect(third).toMatchObject({ role: 'viewer', totpSealed: null, totpLastStep: null, totpEnrolledAt: null });
        expect(await database.db.select().from(authSessions).where(eq(authSessions.userId, 'u3'))).toHaveLength(0);
        expect(audit[5]!.detail).toMatchObject({ sessions_ended: 1 });
        expect(audit.every((entry) => entry.operatorEmail.startsWith('command:'))).toBe(true);
        expect(audit[3]!.detail).toMatchObject({ from: 'support', to: 'viewer', sessions_ended: 1 });
        expect(audit[4]!.detail).toMatchObject({ sessions_ended: 1 });
      } finally {
        await database.close();
      }
    },
  );
});
