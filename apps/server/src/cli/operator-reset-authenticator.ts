import { emailArgument, EX_USAGE, runOperatorCommand } from './operator-command';

/**
 * `npm run operator:reset-authenticator -- <email>`: forgets the operator's authenticator (a lost
 * phone) and ends every session of theirs; their next sign-in by email code sets up a new one.
 */
async function main(): Promise<number> {
  const email = emailArgument(process.argv[2]);
  if (!email || process.argv.length !== 3) {
    console.error('usage: npm run operator:reset-authenticator -- <email>');
    return EX_USAGE;
  }
  return runOperatorCommand('operator:reset-authenticator', async (accounts, actor) => {
    if (!(await accounts.resetSecondFactor(actor, email))) {
      console.error(`operator:reset-authenticator: ${email} is not an operator`);
      return 1;
    }
    console.info(`operator:reset-authenticator: ${email} sets up a new authenticator at their next sign-in; their sessions are ended`);
    return 0;
  });
}

process.exitCode = await main();
