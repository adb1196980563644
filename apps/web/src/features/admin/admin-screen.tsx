import type { DateRangeQuery, OperatorPermission } from '@roots/contracts/admin';
import { useState, type FormEvent } from 'react';
import { sendEmailCode, signInWithEmailCode, signOut } from '../../lib/auth-session';
import { errorMessage, RequestError } from '../../lib/api-client';
import { useResource } from '../../lib/use-resource';
import { getOperator } from './admin-api';
import { CustomersView } from './admin-customers';
import { FunnelView, QualityView, RevenueView } from './admin-dashboards';
import { AuditView, OperatorsView, SecondFactorScreen, SessionsView } from './admin-operators';
import { PlansView, QueuesView } from './admin-queues';
import { OperatorContext } from './operator-context';
import './admin.css';

const TABS = ['funnel', 'revenue', 'quality', 'plans', 'queues', 'customers', 'audit', 'sessions', 'operators'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = {
  funnel: 'Funnel',
  revenue: 'Revenue',
  quality: 'Quality',
  plans: 'Plans',
  queues: 'Queues',
  customers: 'Customers',
  audit: 'Audit log',
  sessions: 'Sessions',
  operators: 'Operators',
};
/** The permission a tab needs (null: every operator); a tab the role lacks is not shown. */
const TAB_PERMISSION: Record<Tab, OperatorPermission | null> = {
  funnel: 'dashboards.read',
  revenue: 'dashboards.read',
  quality: 'dashboards.read',
  plans: 'dashboards.read',
  queues: 'customers.read',
  customers: 'customers.read',
  audit: 'audit.read',
  sessions: null,
  operators: 'operators.manage',
};

const DAY_MS = 86_400_000;
const day = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The last 30 UTC days, today included. */
export function defaultRange(nowMs: number = Date.now()): DateRangeQuery {
  return { from: day(nowMs - 29 * DAY_MS), to: day(nowMs) };
}

/** The operator's email-code sign-in: the same better-auth codes as customers, without the purchase check. */
function OperatorSignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    try {
      if (!sent) {
        await sendEmailCode(email);
        setSent(true);
        setMessage('We sent a code to your email.');
      } else {
        await signInWithEmailCode(email, code);
        onSignedIn();
      }
    } catch (reason) {
      setMessage(errorMessage(reason));
    }
  };
  return (
    <form className="admin-signin" onSubmit={submit} data-testid="operator-sign-in">
      <h2>Operator sign-in</h2>
      <label>
        Email
        <input
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          required
          readOnly={sent}
        />
      </label>
      {sent && (
        <label>
          Code from the email
          <input
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
            required
          />
        </label>
      )}
      <button type="submit" className="admin-button">
        {sent ? 'Sign in' : 'Send code'}
      </button>
      {message && <p role="status">{message}</p>}
    </form>
  );
}

/** `/{slug}/admin`: the operator console. Customers see that it is for operators; visitors the sign-in. */
export function AdminScreen() {
  const [attempt, setAttempt] = useState(0);
  const operator = useResource(`operator:${attempt}`, (signal) => getOperator(signal));
  const [tab, setTab] = useState<Tab>('funnel');
  const [range, setRange] = useState<DateRangeQuery>(() => defaultRange());

  let body;
  if (operator.status === 'loading') body = <p role="status">Loading…</p>;
  else if (operator.status === 'error') {
    const status = operator.error instanceof RequestError ? operator.error.status : 0;
    body =
      status === 401 ? (
        <OperatorSignIn onSignedIn={() => setAttempt((value) => value + 1)} />
      ) : status === 403 ? (
        <p role="alert" data-testid="admin-forbidden">
          This area is for the operators of this product.
        </p>
      ) : (
        <p role="alert">{errorMessage(operator.error)}</p>
      );
  } else if (operator.data.second_factor !== 'passed') {
    body = <SecondFactorScreen operator={operator.data} onPassed={() => setAttempt((value) => value + 1)} />;
  } else {
    const me = operator.data;
    const tabs = TABS.filter((name) => {
      const needed = TAB_PERMISSION[name];
      return needed === null || me.permissions.includes(needed);
    });
    const shown = tabs.includes(tab) ? tab : (tabs[0] ?? 'sessions');
    body = (
      <OperatorContext.Provider value={me}>
        <div className="admin-toolbar">
          <p>
            Signed in as <strong data-testid="operator-email">{me.email}</strong> (<span data-testid="operator-role">{me.role}</span>){' '}
            <button
              type="button"
              className="admin-button admin-button--quiet"
              onClick={() => void signOut().then(() => setAttempt((value) => value + 1))}
            >
              Sign out
            </button>
          </p>
          <fieldset className="admin-range">
            <legend>Date range (UTC)</legend>
            <label>
              From
              <input
                type="date"
                value={range.from}
                max={range.to}
                onChange={(event) => event.target.value && setRange({ ...range, from: event.target.value })}
              />
            </label>
            <label>
              To
              <input
                type="date"
                value={range.to}
                min={range.from}
                onChange={(event) => event.target.value && setRange({ ...range, to: event.target.value })}
              />
            </label>
          </fieldset>
        </div>
        <nav aria-label="Console sections" className="admin-tabs">
          {tabs.map((name) => (
            <button key={name} type="button" className="admin-tab" aria-pressed={shown === name} onClick={() => setTab(name)}>
              {TAB_LABELS[name]}
            </button>
          ))}
        </nav>
        {shown === 'funnel' && <FunnelView range={range} />}
        {shown === 'revenue' && <RevenueView range={range} />}
        {shown === 'quality' && <QualityView range={range} />}
        {shown === 'plans' && <PlansView range={range} />}
        {shown === 'queues' && <QueuesView />}
        {shown === 'customers' && <CustomersView />}
        {shown === 'audit' && <AuditView />}
        {shown === 'sessions' && <SessionsView />}
        {shown === 'operators' && <OperatorsView self={me.email} />}
      </OperatorContext.Provider>
    );
  }
  return (
    <main className="admin" data-testid="admin-screen">
      <h1>Operator console</h1>
      {body}
    </main>
  );
}
