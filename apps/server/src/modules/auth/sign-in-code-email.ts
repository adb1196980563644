import type { RenderedEmail } from '../emails/email-templates';

/** The one-time sign-in code email; the code is the whole point, so it leads the subject too. */
export function signInCodeEmail(input: { productName: string; code: string }): RenderedEmail {
  const lines = [
    `Your ${input.productName} sign-in code is ${input.code}.`,
    'It is valid for 10 minutes. If you did not ask for it, ignore this email.',
  ];
  return {
    kind: 'sign_in_code',
    subject: `${input.code} is your ${input.productName} sign-in code`,
    text: lines.join('\n'),
    html: `<!doctype html><html><body style="font-family:sans-serif">${lines.map((line) => `<p>${line}</p>`).join('')}</body></html>`,
  };
}
