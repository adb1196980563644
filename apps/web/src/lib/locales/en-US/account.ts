/** en-US copy of account access outside the webapp: access recovery and the not-exist modal. */
export const ACCOUNT_EN_US = {
  accessRecovery: {
    intro: 'Enter the email you paid with and we will send you a one-time code to sign in.',
    emailLabel: 'Email you paid with',
    send: 'Send me a sign-in code',
    codeSent: 'If a purchase was made with {{email}}, we sent a 6-digit sign-in code to it. It is valid for 10 minutes.',
    codeNotice:
      'No email after a few minutes? Check the address you paid with. If your purchase is in an account that signs in another way, the email tells you which.',
    codeLabel: 'Code',
    signIn: 'Sign in',
    tryAnother: 'Try another email',
  },
} as const;
