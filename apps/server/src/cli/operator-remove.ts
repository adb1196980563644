import { emailCommand } from './operator-command';

/** `npm run operator:remove -- <email>`: `email` is no operator any more, and every session of theirs ends at once. */
process.exitCode = await emailCommand(
  'operator:remove',
  (accounts, actor, email) => accounts.remove(actor, email),
  (email) => `${email} is no longer an operator; their sessions are ended`,
);
