import {
  AUDIT_PAGE_MAX,
  hasPermission,
  OPERATOR_REFUSALS,
  ROLE_PERMISSIONS,
  type AdminAction,
  type AuditList,
  type AuditQuery,
  type Operator,
  type OperatorMe,
  type OperatorPermission,
  type OperatorRole,
  type OperatorSession,
  type TotpEnrollment,
} from '@roots/contracts/admin';
import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Db } from '../../db/database';
import type { Executor } from '../../db/executor';
import { adminAudit } from '../../db/schema';
import { AppError } from '../../errors';
import { DAY_MS, HOUR_MS, type Clock } from '../../lib/clock';
import { normalizeEmail } from '../../lib/mask';
import { openSealed, seal } from '../../lib/sealed-box';
import type { SessionUser } from '../auth/session';
import { toAuditEntry } from './admin.service';
import { OperatorsRepository, type OperatorRow } from './operators.repository';
import type { SecondFactorLimit } from './second-factor-limit';

/** An operator session ends after this long without a console request (ADR 151). */
export const OPERATOR_IDLE_MS = 12 * HOUR_MS;
/** …and at the latest this long after its second factor, whatever the activity. */
export const OPERATOR_SESSION_MAX_MS = DAY_MS;
/** A session's last-seen time is written at most this often. */
const TOUCH_EVERY_MS = 60_000;
/** The purpose the TOTP secrets are sealed for (a key of their own, derived from APP_SECRET). */
const TOTP_SEAL_PURPOSE = 'operator-totp';
/** TOTP codes of the step before and after the current one are accepted too (clock drift). */
const TOTP_WINDOW = 1;
const TOTP_PERIOD_SECONDS = 30;

/** Who wrote an audit entry: an operator's email, or `command:<os user>` for the operator commands. */
export type Actor = { email: string };

/** A signed-in operator as the guard found them. */
export type OperatorCaller = {
  email: string;
  role: OperatorRole;
  sessionId: string;
  secondFactor: OperatorMe['second_factor'];
};

/** The TOTP of one secret, as the operator's authenticator app computes it (SHA-1, 6 digits, 30 s). */
export function operatorTotp(secretBase32: string, email: string, issuer: string): TOTP {
  return new TOTP({
    issuer,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

const AUDIT_CURSOR = /^(\d{4}-\d{2}-\d{2}T[\d:.]+Z)\|([0-9a-f-]{36})$/;

function encodeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: Date; id: string } {
  const match = AUDIT_CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new AppError('VALIDATION_ERROR', 'Invalid querystring: cursor: is not a cursor of this list');
  return { at: new Date(match[1]!), id: match[2]! };
}

export type OperatorAccountsDependencies = {
  db: Db;
  clock: Clock;
  /** The secret the TOTP secrets are sealed under (APP_SECRET). */
  sealSecret: string;
  /** The authenticator's label for this installation (PRODUCT_NAME). */
  issuer: string;
  /** The per-operator failure limit of the authenticator step (ADR 168). */
  secondFactorLimit: SecondFactorLimit;
};

/**
 * Operator accounts (issue 25, ADR 150–151): roles, the TOTP second factor, operator sessions,
 * and the audit entries of operator management. The `operator:*` commands and the console's
 * `/api/admin/*` routes share it.
 */
export class OperatorAccounts {
  readonly repository = new OperatorsRepository();

  constructor(private readonly deps: OperatorAccountsDependencies) {}

  private get db() {
    return this.deps.db;
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  async appendAudit(
    db: Executor,
    actor: Actor,
    action: AdminAction,
    detail: Record<string, string | number | boolean | null> = {},
  ): Promise<void> {
    await db.insert(adminAudit).values({
      id: randomUUID(),
      operatorEmail: actor.email,
      action,
      customerEmail: null,
      subscriptionId: null,
      detail,
      createdAt: this.now(),
    });
  }

  // ----- operators ------------------------------------------------------------------------------

  /**
   * Adds an operator with `role`; without one, the first operator of an installation is its owner
   * and every later one support. False (and nothing changes) when the email already is an operator.
   */
  async add(actor: Actor, rawEmail: string, role?: OperatorRole): Promise<{ added: boolean; role: OperatorRole }> {
    const email = normalizeEmail(rawEmail);
    return this.db.transaction(async (tx) => {
      const existing = await this.repository.find(tx, email);
      if (existing) return { added: false, role: existing.role };
      const chosen = role ?? ((await this.repository.count(tx)) === 0 ? 'owner' : 'support');
      await this.repository.add(tx, { email, role: chosen, addedBy: actor.email, now: this.now() });
      await this.appendAudit(tx, actor, 'operator.add', { operator: email, role: chosen });
      return { added: true, role: chosen };
    });
  }

  /** Removes an operator and ends all their sessions at once. False when the email was no operator. */
  remove(actor: Actor, rawEmail: string): Promise<boolean> {
    return this.changeEndingSessions(actor, rawEmail, 'operator.remove', (tx, email) => this.repository.remove(tx, email));
  }

  /** Changes an operator's role and ends all their sessions at once. The role before; undefined: no such operator. */
  async changeRole(actor: Actor, rawEmail: string, role: OperatorRole): Promise<OperatorRole | undefined> {
    const email = normalizeEmail(rawEmail);
    return this.db.transaction(async (tx) => {
      const before = await this.repository.setRole(tx, email, role);
      if (before === undefined || before === role) return before;
      const ended = await this.repository.endSessionsOf(tx, email);
      await this.appendAudit(tx, actor, 'operator.role_change', { operator: email, from: before, to: role, sessions_ended: ended });
      return before;
    });
  }

  /**
   * Forgets an operator's authenticator (a lost phone) and ends all their sessions at once: their
   * next sign-in by email code leads to setting up a new one. False when the email is no operator.
   */
  resetSecondFactor(actor: Actor, rawEmail: string): Promise<boolean> {
    return this.changeEndingSessions(actor, rawEmail, 'operator.second_factor_reset', (tx, email) =>
      this.repository.resetSecondFactor(tx, email),
    );
  }

  /** `change` (false: no such operator), then every session of the operator ends; audited as `action`, in one transaction. */
  private changeEndingSessions(
    actor: Actor,
    rawEmail: string,
    action: AdminAction,
    change: (tx: Executor, email: string) => Promise<boolean>,
  ): Promise<boolean> {
    const email = normalizeEmail(rawEmail);
    return this.db.transaction(async (tx) => {
      if (!(await change(tx, email))) return false;
      const ended = await this.repository.endSessionsOf(tx, email);
      await this.appendAudit(tx, actor, action, { operator: email, sessions_ended: ended });
      return true;
    });
  }

  /**
   * The console's checks that an owner does not lock the installation out: the last owner can
   * neither be removed nor lose the owner role from the console.
   */
  async assertNotLastOwner(email: string): Promise<void> {
    const owners = (await this.repository.list(this.db)).filter((row) => row.role === 'owner');
    if (owners.length === 1 && owners[0]!.email === normalizeEmail(email))
      throw new AppError('CONFLICT', 'The last owner cannot be removed or given another role');
  }

  async list(): Promise<Operator[]> {
    return (await this.repository.list(this.db)).map((row) => ({
      email: row.email,
      role: row.role,
      added_by: row.addedBy,
      created_at: row.createdAt.toISOString(),
      second_factor_enrolled: row.totpEnrolledAt !== null,
    }));
  }

  // ----- the guard's checks ---------------------------------------------------------------------

  /**
   * The signed-in user as an operator: who, which role, and whether this session passed the second
   * factor. A session idle past {@link OPERATOR_IDLE_MS} or older than {@link OPERATOR_SESSION_MAX_MS}
   * since its second factor is ended here (401 'user-token-expired', as any ended session).
   * @throws AppError FORBIDDEN 'Operators only' for a customer.
   */
  async caller(user: SessionUser): Promise<OperatorCaller> {
    const caller = await this.callerIfOperator(user);
    if (!caller) throw new AppError('FORBIDDEN', OPERATOR_REFUSALS.notOperator);
    return caller;
  }

  /** {@link caller}, or undefined when the signed-in user is no operator (a customer). */
  async callerIfOperator(user: SessionUser): Promise<OperatorCaller | undefined> {
    const email = normalizeEmail(user.email);
    const row = user.emailVerified && user.sessionId ? await this.repository.find(this.db, email) : undefined;
    if (!row || !user.sessionId) return undefined;
    const base = { email, role: row.role, sessionId: user.sessionId };
    if (row.totpEnrolledAt === null) return { ...base, secondFactor: 'enroll' };
    const factor = await this.repository.factorOf(this.db, user.sessionId);
    if (!factor || factor.operatorEmail !== email) return { ...base, secondFactor: 'verify' };
    const now = this.now();
    if (
      now.getTime() - factor.lastSeenAt.getTime() > OPERATOR_IDLE_MS ||
      now.getTime() - factor.verifiedAt.getTime() > OPERATOR_SESSION_MAX_MS
    ) {
      await this.repository.endSession(this.db, user.sessionId);
      throw new AppError('UNAUTHORIZED', 'user-token-expired');
    }
    if (now.getTime() - factor.lastSeenAt.getTime() > TOUCH_EVERY_MS) await this.repository.touchFactor(this.db, user.sessionId, now);
    return { ...base, secondFactor: 'passed' };
  }

  /**
   * Refuses a caller who has not passed the second factor, or whose role lacks `permission`
   * (null: any operator).
   */
  authorize(caller: OperatorCaller, permission: OperatorPermission | null): void {
    if (caller.secondFactor === 'enroll') throw new AppError('FORBIDDEN', OPERATOR_REFUSALS.enrollmentRequired);
    if (caller.secondFactor === 'verify') throw new AppError('FORBIDDEN', OPERATOR_REFUSALS.secondFactorRequired);
    if (permission !== null && !hasPermission(caller.role, permission)) throw new AppError('FORBIDDEN', OPERATOR_REFUSALS.roleForbidden);
  }

  me(caller: OperatorCaller): OperatorMe {
    return {
      email: caller.email,
      operator: true,
      role: caller.role,
      permissions: [...ROLE_PERMISSIONS[caller.role]],
      second_factor: caller.secondFactor,
    };
  }

  // ----- the second factor ----------------------------------------------------------------------

  /** The TOTP of an operator's secret under this installation's issuer (what their authenticator computes). */
  totp(secretBase32: string, email: string): TOTP {
    return operatorTotp(secretBase32, email, this.deps.issuer);
  }

  /** A new authenticator secret for an operator who has none confirmed (it replaces an unconfirmed one). */
  async enroll(caller: OperatorCaller): Promise<TotpEnrollment> {
    if (caller.secondFactor !== 'enroll') throw new AppError('CONFLICT', 'An authenticator is already set up for this operator');
    const secret = new Secret({ size: 20 }).base32;
    if (!(await this.repository.setPendingSecret(this.db, caller.email, seal(this.deps.sealSecret, TOTP_SEAL_PURPOSE, secret))))
      throw new AppError('CONFLICT', 'An authenticator is already set up for this operator');
    const uri = operatorTotp(secret, caller.email, this.deps.issuer).toString();
    return { secret, uri, qr_svg: await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }) };
  }

  /**
   * Checks an authenticator code: on success this session has passed the second factor (and a
   * pending enrollment is confirmed); each code is accepted once. A wrong code is audited
   * ('operator.second_factor_failed'); the one that reaches the operator's failure limit locks their
   * step (ADR 168, audited 'operator.second_factor_locked').
   * @throws AppError FORBIDDEN when the code is wrong, used already, or no secret was set up;
   *   RATE_LIMITED while the operator's step is locked, whatever the code.
   */
  async verify(caller: OperatorCaller, code: string, client: { ip: string }): Promise<void> {
    const row: OperatorRow | undefined = await this.repository.find(this.db, caller.email);
    const secret = row?.totpSealed ? openSealed(this.deps.sealSecret, TOTP_SEAL_PURPOSE, row.totpSealed) : undefined;
    if (!row || secret === undefined) throw new AppError('FORBIDDEN', OPERATOR_REFUSALS.enrollmentRequired);
    const limit = this.deps.secondFactorLimit;
    const attempt = await limit.attempt(caller.email);
    const timestamp = this.now().getTime();
    const delta = operatorTotp(secret, caller.email, this.deps.issuer).validate({ token: code, timestamp, window: TOTP_WINDOW });
    const step = Math.floor(timestamp / 1000 / TOTP_PERIOD_SECONDS) + (delta ?? 0);
    const enrolling = row.totpEnrolledAt === null;
    const accepted = await this.db.transaction(async (tx) => {
      if (delta === null || !(await this.repository.useStep(tx, caller.email, step, this.now()))) return false;
      await this.repository.recordFactor(tx, { sessionId: caller.sessionId, operatorEmail: caller.email, now: this.now() });
      if (enrolling) await this.appendAudit(tx, caller, 'operator.second_factor_enrolled');
      await this.appendAudit(tx, caller, 'operator.sign_in', { second_factor: 'totp', ip: client.ip });
      return true;
    });
    if (accepted) {
      await limit.succeeded(caller.email);
      return;
    }
    const locked = await limit.failed(caller.email, attempt);
    await this.db.transaction(async (tx) => {
      await this.appendAudit(tx, caller, 'operator.second_factor_failed', { ip: client.ip, failures: attempt });
      if (locked) await this.appendAudit(tx, caller, 'operator.second_factor_locked', { ip: client.ip, minutes: limit.lockMinutes });
    });
    throw new AppError('FORBIDDEN', 'That code is not right or was used already. Wait for the next one.');
  }

  // ----- sessions -------------------------------------------------------------------------------

  /** Live operator sessions: the caller's own, or (`all`, owners) every operator's. */
  async sessions(caller: OperatorCaller, all: boolean): Promise<OperatorSession[]> {
    if (all && !hasPermission(caller.role, 'operators.manage')) throw new AppError('FORBIDDEN', OPERATOR_REFUSALS.roleForbidden);
    const rows = await this.repository.sessions(this.db, { email: all ? undefined : caller.email, now: this.now() });
    return rows.map((row) => ({
      id: row.id,
      operator_email: row.email,
      created_at: row.createdAt.toISOString(),
      last_seen_at: row.lastSeenAt?.toISOString() ?? null,
      expires_at: row.expiresAt.toISOString(),
      ip_address: row.ipAddress,
      user_agent: row.userAgent,
      second_factor_passed: row.verifiedAt !== null,
      current: row.id === caller.sessionId,
    }));
  }

  /** Ends a session: one's own, or (owners) any operator's. */
  async revokeSession(caller: OperatorCaller, sessionId: string): Promise<void> {
    const owner = await this.repository.sessionOwner(this.db, sessionId);
    if (owner === undefined || (owner !== caller.email && !(await this.repository.find(this.db, owner))))
      throw new AppError('NOT_FOUND', 'No operator session with this id');
    if (owner !== caller.email && !hasPermission(caller.role, 'operators.manage'))
      throw new AppError('FORBIDDEN', OPERATOR_REFUSALS.roleForbidden);
    await this.db.transaction(async (tx) => {
      await this.repository.endSession(tx, sessionId);
      await this.appendAudit(tx, caller, 'operator.session_revoked', { operator: owner, own: owner === caller.email });
    });
  }

  // ----- audit ----------------------------------------------------------------------------------

  async auditPage(query: AuditQuery): Promise<AuditList> {
    const limit = Math.min(query.limit, AUDIT_PAGE_MAX);
    const rows = await this.repository.auditPage(this.db, {
      limit: limit + 1,
      before: query.cursor ? decodeCursor(query.cursor) : undefined,
      operatorEmail: query.operator ? query.operator.trim().toLowerCase() : undefined,
      action: query.action,
      from: query.from ? new Date(`${query.from}T00:00:00Z`) : undefined,
      to: query.to ? new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS) : undefined,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { entries: page.map(toAuditEntry), next_cursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null };
  }

  async recordExport(caller: OperatorCaller, name: string, rows: number): Promise<void> {
    await this.appendAudit(this.db, caller, 'operator.export', { name, rows });
  }
}
