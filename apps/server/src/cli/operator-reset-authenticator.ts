import { emailCommand } from './operator-command';

/**
 * `npm run operator:reset-authenticator -- <email>`: forgets the operator's authenticator (a lost
 * phone) and ends every session of theirs; their next sign-in by email code sets up a new one.
 */
process.exitCode = await emailCommand(
  'operator:reset-authenticator',
  (accounts, actor, email) => accounts.resetSecondFactor(actor, email),
  (email) => `${email} sets up a new authenticator at their next sign-in; their sessions are ended`,
);
