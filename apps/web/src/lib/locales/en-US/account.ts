/** en-US copy of account access outside the webapp: access recovery, the not-exist modal, a new card for a subscription. */
export const ACCOUNT_EN_US = {
  updateCard: {
    loading: 'Opening the secure card form…',
    heading: 'New card for {{plan}}',
    currentCard: 'Card on file: ending in {{last4}}.',
    noCard: 'No card on file.',
    retryNow: 'Your last payment did not go through. We will try the payment of {{amount}} again now, on the card you save here.',
    nextPayment: 'Your next payment of {{amount}} on {{date}} uses this card.',
    nextPaymentUndated: 'Your next payment of {{amount}} uses this card.',
    chargesNothing: 'Saving the card charges nothing by itself: your bank only confirms it.',
    formLabel: 'New card details',
    saving: 'Saving your card…',
    savedTitle: 'Card saved',
    savedText: 'Your card ending in {{last4}} is now the card for {{plan}}.',
    savedRetry: 'We will try the payment of {{amount}} again now. The receipt goes to your email.',
    tryAgain: 'Try again',
    signIn: 'Sign in to manage your subscriptions',
  },
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
