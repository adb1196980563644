import { OPERATOR_ROLES } from '@roots/contracts/admin';
import { emailArgument, EX_USAGE, roleArgument, runOperatorCommand } from './operator-command';

/**
 * `npm run operator:add -- <email> [--role owner|support|viewer]`: makes `email` an operator. Without
 * `--role` the first operator of an installation is its owner and every later one support. The
 * operator then signs in with the ordinary email code, sets up an authenticator app and opens
 * `/{slug}/admin`.
 */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const roleAt = args.indexOf('--role');
  const role = roleAt >= 0 ? roleArgument(args[roleAt + 1]) : undefined;
  const email = emailArgument(args.find((_, index) => roleAt < 0 || (index !== roleAt && index !== roleAt + 1)));
  if (!email || (roleAt >= 0 && !role) || args.length !== (roleAt >= 0 ? 3 : 1)) {
    console.error(`usage: npm run operator:add -- <email> [--role ${OPERATOR_ROLES.join('|')}]`);
    return EX_USAGE;
  }
  return runOperatorCommand('operator:add', async (accounts, actor) => {
    const result = await accounts.add(actor, email, role);
    console.info(
      result.added
        ? `operator:add: ${email} is now an operator (${result.role})`
        : `operator:add: ${email} already is an operator (${result.role}); use operator:role to change the role`,
    );
    return 0;
  });
}

process.exitCode = await main();
