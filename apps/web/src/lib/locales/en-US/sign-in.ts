/** en-US copy of sign-in and activation. */
export const SIGN_IN_EN_US = {
  checking: 'Checking your sign-in…',
  google: 'Continue with Google',
  apple: 'Continue with Apple',
  emailLabel: 'Email for a one-time code',
  sendCode: 'Email me a code',
  codeSent: 'We sent a 6-digit code to {{email}}.',
  codeLabel: 'Code',
  verify: 'Sign in',
  /** The purchase claimed was a second plan beside the one the account has (ADR 196). */
  refundedDuplicateTitle: 'You already had this',
  openAccount: 'Open my account',
  recoverAccess: 'Cannot get in? Recover access with the email you paid with',
} as const;
