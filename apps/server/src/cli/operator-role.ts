import { OPERATOR_ROLES } from '@roots/contracts/admin';
import { emailArgument, EX_USAGE, roleArgument, runOperatorCommand } from './operator-command';

/** `npm run operator:role -- <email> <owner|support|viewer>`: changes an operator's role; their sessions end at once. */
async function main(): Promise<number> {
  const email = emailArgument(process.argv[2]);
  const role = roleArgument(process.argv[3]);
  if (!email || !role || process.argv.length !== 4) {
    console.error(`usage: npm run operator:role -- <email> <${OPERATOR_ROLES.join('|')}>`);
    return EX_USAGE;
  }
  return runOperatorCommand('operator:role', async (accounts, actor) => {
    const before = await accounts.changeRole(actor, email, role);
    if (before === undefined) {
      console.error(`operator:role: ${email} is not an operator`);
      return 1;
    }
    console.info(
      before === role
        ? `operator:role: ${email} already is ${role}`
        : `operator:role: ${email} is now ${role} (was ${before}); their sessions are ended`,
    );
    return 0;
  });
}

process.exitCode = await main();
