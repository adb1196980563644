import { emailArgument, EX_USAGE, runOperatorCommand } from './operator-command';

/** `npm run operator:remove -- <email>`: `email` is no operator any more, and every session of theirs ends at once. */
async function main(): Promise<number> {
  const email = emailArgument(process.argv[2]);
  if (!email || process.argv.length !== 3) {
    console.error('usage: npm run operator:remove -- <email>');
    return EX_USAGE;
  }
  return runOperatorCommand('operator:remove', async (accounts, actor) => {
    if (!(await accounts.remove(actor, email))) {
      console.error(`operator:remove: ${email} is not an operator`);
      return 1;
    }
    console.info(`operator:remove: ${email} is no longer an operator; their sessions are ended`);
    return 0;
  });
}

process.exitCode = await main();
