import { formatMessage, MESSAGES } from '@roots/contracts/messages';
import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { ACCOUNT_EN_US } from './locales/en-US/account';
import { FUNNEL_SCREENS_EN_US } from './locales/en-US/funnel';
import { SIGN_IN_EN_US } from './locales/en-US/sign-in';
import { WEBAPP_EN_US } from './locales/en-US/webapp';

export const DEFAULT_LANGUAGE = 'en-US';

/** en-US strings: the spec's catalogue plus screen copy. `{{product}}` is interpolated. */
const EN_US = {
  messages: Object.fromEntries(Object.entries(MESSAGES).map(([key, text]) => [key, formatMessage(text, { product: '{{product}}' })])),
  screens: {
    ...FUNNEL_SCREENS_EN_US,
    landing: {
      cta: 'Take the selfie test',
      usersLabel: 'people have discovered their roots',
      alreadyCustomer: 'Already a customer?',
      signIn: 'Sign in to your account',
      honesty: 'An estimate of visual resemblance to population groups, with its uncertainty. Not a genetic test.',
    },
    titles: {
      population: 'Population insights',
      subscription: 'Choose your plan',
      offers: 'Special one-time offers',
      accessProduct: 'Access your {{product}}',
      signIn: 'Sign in',
      activate: 'Activate your account',
      unsubscription: 'Cancel subscription',
      unsubscribeWithEmail: 'Cancel subscription by email',
      accessRecovery: 'Access recovery',
      webappHome: 'Your {{product}}',
      myEthnicity: 'Your {{product}}',
      selfie: 'Take a selfie',
      profile: 'Profile',
      reports: 'Reports history',
      manageSubscriptions: 'Manage subscriptions',
      updateCard: 'Update your card',
    },
    notFound: { backHome: 'Go to the start' },
    footer: { cookies: 'Cookie policy', privacy: 'Privacy policy', terms: 'Terms of use' },
    paywall: {
      skipTrial: 'Skip the trial: {{name}}, {{price}} today',
      switchPlan: 'Switch to {{name}}: {{price}} today',
      pendingText:
        'Your bank has not confirmed this payment yet. If its check is still open in another window, finish it there and this page moves on by itself. If you closed it, the bank will not finish it: you can pay another way now.',
      lateConfirmation:
        'You will not pay twice: if your bank still confirms this payment after you have paid another way, we refund it automatically and tell you at {{email}}.',
      checkNow: 'Check again now',
      stillPending: 'Checked just now: your bank has still not confirmed this payment.',
      checkUnavailable: 'We could not check just now. Nothing has changed; try again in a moment.',
      payAnotherWay: 'Pay another way',
      notPaidTitle: 'The payment did not go through',
      notPaidText: 'Your bank did not confirm the payment, so nothing was charged. You can pay again.',
      expiredTitle: 'Your bank’s check was not finished',
      expiredText: 'Your bank’s check was not finished in time, so this payment was cancelled and nothing was charged. You can pay again.',
      refundedTitle: 'This payment was not needed',
      refundedText:
        'You had already paid for this plan another way, so this payment bought nothing. It is refunded automatically, and we tell you at {{email}} once it is done.',
      tryAgain: 'Pay again',
      ownedTitle: 'You already have this plan',
      ownedText: 'It was bought in this browser or with your account, so there is nothing to pay. Open your account to use it.',
      openAccount: 'Open my account',
      /** A second plan paid anyway (ADR 196): the server's words say it was refunded. */
      refundedOwnedTitle: 'Nothing more to pay',
      selfie: {
        again:
          'Your selfie was kept only in this tab’s memory and never stored, so reloading the page let it go. We will ask for your selfie again after payment, in your account.',
        after: 'We will ask for your selfie after payment, in your account.',
      },
    },
    population: {
      intro: 'Where people of each group our report can name live today, by world region and largest countries.',
      choose: 'Choose a group',
      personal: 'Take the selfie test to see the groups your own face resembles, with the figures for them.',
    },
    accessProduct: {
      purchasedWith: 'Your purchase is registered to {{email}}.',
      whatYouGet: 'What your purchase gives you',
      access: {
        subscription: 'A subscription',
        profile_pro: 'Profile Pro',
        report: 'A Heritage Report',
        ultimate_pack: 'The Ultimate Pack',
        premium_one_month: 'Premium Plan',
        gift_one_month: 'Gift Plan',
      },
      howToSignIn: 'How to sign in',
      steps: {
        email: 'Use the email address you paid with.',
        code: 'Ask for a one-time code: we email it to that address.',
        providers: 'Or continue with a Google-type or Apple-type account that uses the same address.',
      },
      signIn: 'Sign in',
      lost: 'No longer have that email?',
      recover: 'Recover access',
    },
  },
  signIn: SIGN_IN_EN_US,
  account: ACCOUNT_EN_US,
  webapp: WEBAPP_EN_US,
} as const;

/** Creates and initialises the app's i18next instance (synchronously: resources are bundled). */
export function createI18n(productName: string): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    resources: { [DEFAULT_LANGUAGE]: { translation: EN_US } },
    interpolation: { escapeValue: false, defaultVariables: { product: productName } },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}
