import type { MailboxMessage } from '@roots/contracts/emails';
import type { RootsApp } from '../app';
import type { ReceivedMail } from './smtp';

/** The SMTP server the app under test delivers to (when it has SMTP_URL): the code is read there. */
type SmtpInbox = { mails: ReceivedMail[]; waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail> };

/**
 * Signs in by email code through the real better-auth endpoints (no shortcut): asks for a code,
 * reads it from the dev mailbox, verifies it. Returns the Cookie header of the new session.
 */
export async function signInWithEmailCode(
  app: RootsApp,
  email: string,
  origin = 'http://127.0.0.1:3000',
  smtp?: SmtpInbox,
): Promise<string> {
  const readMailbox = async () =>
    (await app.inject({ method: 'GET', url: '/dev/mailbox.json' })).json<{ messages: MailboxMessage[] }>().messages;
  // Only a code sent by this call counts: an earlier sign-in of the same email left older ones.
  const seen = new Set((await readMailbox()).map((item) => item.id));
  const smtpSeen = new Set(smtp?.mails ?? []);
  const sent = await app.inject({
    method: 'POST',
    url: '/api/auth/email-otp/send-verification-otp',
    headers: { origin, 'content-type': 'application/json' },
    payload: { email, type: 'sign-in' },
  });
  if (sent.statusCode !== 200) throw new Error(`send code: ${sent.statusCode} ${sent.body}`);
  await app.roots.emails.idle();
  const text = smtp
    ? (await smtp.waitFor((mail) => !smtpSeen.has(mail) && mail.to.includes(email) && /sign-in code/.test(mail.subject))).text
    : (await readMailbox()).find((item) => item.kind === 'sign_in_code' && item.to === email && !seen.has(item.id))?.text;
  const code = /code is (\d{6})\./.exec(text ?? '')?.[1];
  if (!code) throw new Error(`no sign-in code for ${email}`);
  const signedIn = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email-otp',
    headers: { origin, 'content-type': 'application/json' },
    payload: { email, otp: code },
  });
  if (signedIn.statusCode !== 200) throw new Error(`sign in: ${signedIn.statusCode} ${signedIn.body}`);
  const setCookie = signedIn.headers['set-cookie'];
  const cookies = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ''])
    .map((cookie) => cookie.split(';')[0] ?? '')
    .filter((cookie) => cookie.includes('='));
  return cookies.join('; ');
}
