import {
  ADMIN_ACTIONS,
  OPERATOR_ROLES,
  type AuditEntry,
  type AuditQuery,
  type OperatorMe,
  type OperatorRole,
  type TotpEnrollment,
} from '@roots/contracts/admin';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/api-client';
import { useResource } from '../../lib/use-resource';
import {
  enrollAuthenticator,
  getAudit,
  getOperators,
  getSessions,
  removeOperator,
  revokeSession,
  setOperatorRole,
  verifyAuthenticatorCode,
} from './admin-api';
import { AuditTable } from './admin-customers';
import { useCan } from './operator-context';

/**
 * The second factor before the console opens (ADR 151): an operator without an authenticator sets
 * one up (QR code and the secret as text), then every sign-in asks for its six-digit code.
 */
export function SecondFactorScreen({ operator, onPassed }: { operator: OperatorMe; onPassed: () => void }) {
  const [enrollment, setEnrollment] = useState<TotpEnrollment | null>(null);
  const [code, setCode] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const enrolling = operator.second_factor === 'enroll';
  const start = async () => {
    setMessage(null);
    try {
      setEnrollment(await enrollAuthenticator());
    } catch (reason) {
      setMessage(errorMessage(reason));
    }
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    try {
      await verifyAuthenticatorCode(code);
      onPassed();
    } catch (reason) {
      setMessage(errorMessage(reason));
    }
  };
  return (
    <section className="admin-signin" aria-labelledby="second-factor-title" data-testid="operator-second-factor">
      <h2 id="second-factor-title">{enrolling ? 'Set up your authenticator' : 'Authenticator code'}</h2>
      {enrolling && !enrollment && (
        <>
          <p>Operators sign in with a second factor: a six-digit code from an authenticator app on your phone.</p>
          <button type="button" className="admin-button" onClick={() => void start()}>
            Set up authenticator
          </button>
        </>
      )}
      {enrollment && (
        <>
          <p>Scan this QR code with your authenticator app, or type the key below into it.</p>
          <img
            className="admin-qr"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrollment.qr_svg)}`}
            alt="QR code of your authenticator key"
            width={200}
            height={200}
          />
          <p>
            Key: <code data-testid="totp-secret">{enrollment.secret}</code>
          </p>
        </>
      )}
      {(!enrolling || enrollment) && (
        <form onSubmit={submit}>
          <label>
            Code from your authenticator app
            <input
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="\d{6}"
              maxLength={6}
              value={code}
              onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
              required
            />
          </label>
          <button type="submit" className="admin-button">
            {enrolling ? 'Confirm and open the console' : 'Open the console'}
          </button>
        </form>
      )}
      {message && <p role="alert">{message}</p>}
    </section>
  );
}

/** The audit trail, newest first, a page at a time, filtered by operator, action and UTC days. */
export function AuditView() {
  const [filters, setFilters] = useState<Partial<AuditQuery>>({});
  const [draft, setDraft] = useState<Partial<AuditQuery>>({});
  const [older, setOlder] = useState<{ entries: AuditEntry[]; cursor: string | null } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const first = useResource(`audit:${JSON.stringify(filters)}`, (signal) => getAudit({ ...filters, limit: 50 }, signal));
  const loadOlder = async (cursor: string) => {
    try {
      const page = await getAudit({ ...filters, limit: 50, cursor });
      setOlder({ entries: [...(older?.entries ?? []), ...page.entries], cursor: page.next_cursor });
    } catch (reason) {
      setMessage(errorMessage(reason));
    }
  };
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setOlder(null);
    setFilters(draft);
  };
  const cursor = older ? older.cursor : first.status === 'ready' ? first.data.next_cursor : null;
  return (
    <section aria-labelledby="audit-title" data-testid="admin-audit">
      <h2 id="audit-title">Audit log</h2>
      <form className="admin-filters" onSubmit={apply}>
        <label>
          Operator
          <input type="email" value={draft.operator ?? ''} onChange={(event) => setDraft({ ...draft, operator: event.target.value })} />
        </label>
        <label>
          Action
          <select
            value={draft.action ?? ''}
            onChange={(event) =>
              setDraft({ ...draft, action: (event.target.value || undefined) as (typeof ADMIN_ACTIONS)[number] | undefined })
            }
          >
            <option value="">Any</option>
            {ADMIN_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </label>
        <label>
          From (UTC)
          <input type="date" value={draft.from ?? ''} onChange={(event) => setDraft({ ...draft, from: event.target.value || undefined })} />
        </label>
        <label>
          To (UTC)
          <input type="date" value={draft.to ?? ''} onChange={(event) => setDraft({ ...draft, to: event.target.value || undefined })} />
        </label>
        <button type="submit" className="admin-button">
          Filter
        </button>
      </form>
      {first.status === 'loading' && <p role="status">Loading…</p>}
      {first.status === 'error' && <p role="alert">{errorMessage(first.error)}</p>}
      {first.status === 'ready' && (
        <>
          <AuditTable entries={[...first.data.entries, ...(older?.entries ?? [])]} />
          {cursor && (
            <button type="button" className="admin-button admin-button--quiet" onClick={() => void loadOlder(cursor)}>
              Older entries
            </button>
          )}
        </>
      )}
      {message && <p role="alert">{message}</p>}
    </section>
  );
}

/** Operator sessions: one's own (everyone) or every operator's (owners), each of which can be ended. */
export function SessionsView() {
  const canManage = useCan('operators.manage');
  const [all, setAll] = useState(false);
  const [version, setVersion] = useState(0);
  const [message, setMessage] = useState<string | null>(null);
  const sessions = useResource(`sessions:${all}:${version}`, (signal) => getSessions(all, signal));
  const end = async (id: string) => {
    setMessage(null);
    try {
      await revokeSession(id);
      setMessage('The session is ended.');
    } catch (reason) {
      setMessage(errorMessage(reason));
    }
    setVersion((value) => value + 1);
  };
  return (
    <section aria-labelledby="sessions-title" data-testid="admin-sessions">
      <h2 id="sessions-title">Sessions</h2>
      <p>
        An operator session ends after 12 hours without use and at the latest 24 hours after its authenticator code; removing an operator or
        changing their role ends all of theirs at once.
      </p>
      {canManage && (
        <label className="admin-inline">
          <input type="checkbox" checked={all} onChange={(event) => setAll(event.target.checked)} /> Every operator’s sessions
        </label>
      )}
      {sessions.status === 'loading' && <p role="status">Loading…</p>}
      {sessions.status === 'error' && <p role="alert">{errorMessage(sessions.error)}</p>}
      {sessions.status === 'ready' && (
        <ul className="admin-list">
          {sessions.data.sessions.map((session) => (
            <li key={session.id} className="admin-card" data-testid="operator-session">
              <strong>{session.operator_email}</strong> · since {session.created_at} · last seen {session.last_seen_at ?? '—'} ·{' '}
              {session.ip_address ?? 'unknown address'} · {session.user_agent ?? ''}
              {session.current ? ' · this session' : ''}
              {session.second_factor_passed ? '' : ' · authenticator code not given'}{' '}
              <button type="button" className="admin-button admin-button--quiet" onClick={() => void end(session.id)}>
                End session
              </button>
            </li>
          ))}
        </ul>
      )}
      {message && <p role="status">{message}</p>}
    </section>
  );
}

/** Owners: every operator with their role, to change or remove (which ends their sessions at once). */
export function OperatorsView({ self }: { self: string }) {
  const [version, setVersion] = useState(0);
  const [message, setMessage] = useState<string | null>(null);
  const operators = useResource(`operators:${version}`, (signal) => getOperators(signal));
  const act = async (action: () => Promise<unknown>, done: string) => {
    setMessage(null);
    try {
      await action();
      setMessage(done);
    } catch (reason) {
      setMessage(errorMessage(reason));
    }
    setVersion((value) => value + 1);
  };
  return (
    <section aria-labelledby="operators-title" data-testid="admin-operators">
      <h2 id="operators-title">Operators</h2>
      <p>
        Add operators with <code>npm run operator:add -- &lt;email&gt; --role &lt;role&gt;</code>. Viewers read the dashboards and
        customers; support also refunds, cancels and resends emails; owners also manage operators, export data, erase customer data and read
        the audit log.
      </p>
      {operators.status === 'loading' && <p role="status">Loading…</p>}
      {operators.status === 'error' && <p role="alert">{errorMessage(operators.error)}</p>}
      {operators.status === 'ready' && (
        <ul className="admin-list">
          {operators.data.operators.map((operator) => (
            <li key={operator.email} className="admin-card" data-testid={`operator-${operator.email}`}>
              <strong>{operator.email}</strong> · added by {operator.added_by} on {operator.created_at} ·{' '}
              {operator.second_factor_enrolled ? 'authenticator set up' : 'no authenticator yet'}{' '}
              <label className="admin-inline">
                Role
                <select
                  value={operator.role}
                  onChange={(event) =>
                    void act(
                      () => setOperatorRole(operator.email, event.target.value as OperatorRole),
                      `${operator.email} is now ${event.target.value}.`,
                    )
                  }
                >
                  {OPERATOR_ROLES.map((role) => (
                    <option key={role} value={role}>
                      {role}
                    </option>
                  ))}
                </select>
              </label>
              {operator.email !== self && (
                <button
                  type="button"
                  className="admin-button admin-button--danger"
                  onClick={() => {
                    if (window.confirm(`Remove ${operator.email}? Their sessions end at once.`))
                      void act(() => removeOperator(operator.email), `${operator.email} is no longer an operator.`);
                  }}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {message && <p role="status">{message}</p>}
    </section>
  );
}
