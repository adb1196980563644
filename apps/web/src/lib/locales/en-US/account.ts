/** en-US copy of account access outside the webapp: access recovery and the not-exist modal. */
export const ACCOUNT_EN_US = {
  accessRecovery: {
    intro: 'Enter the email you paid with and we will send you a one-time code to sign in.',
    emailLabel: 'Email you paid with',
    send: 'Send me a sign-in code',
    codeSent: 'We sent a 6-digit sign-in code to {{email}}. It is valid for 10 minutes.',
    codeLabel: 'Code',
    signIn: 'Sign in',
    noPurchaseTitle: 'No purchase on this email',
    noPurchase: 'We could not find a purchase made with {{email}}. Check the address you paid with.',
    linkedTitle: 'Your purchase is in another account',
    linkedGoogle: 'It is linked to an account that signs in with Google. Sign in with Google to see it.',
    linkedApple: 'It is linked to an account that signs in with Apple. Sign in with Apple to see it.',
    linkedEmail: 'It is linked to an account that signs in with another email address. Sign in with that address.',
    goToSignIn: 'Go to sign-in',
    tryAnother: 'Try another email',
    start: 'Go to the start',
  },
} as const;
