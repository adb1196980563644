import { formatMessage, MESSAGES } from '@roots/contracts/messages';
import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';

export const DEFAULT_LANGUAGE = 'en-US';

/** en-US strings: the spec's catalogue plus screen copy. `{{product}}` is interpolated. */
const EN_US = {
  messages: Object.fromEntries(Object.entries(MESSAGES).map(([key, text]) => [key, formatMessage(text, { product: '{{product}}' })])),
  screens: {
    landing: {
      cta: 'Take the selfie test',
      usersLabel: 'people have discovered their roots',
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
      profile: 'Profile',
      reports: 'Reports history',
      manageSubscriptions: 'Manage subscriptions',
    },
    notFound: { backHome: 'Go to the start' },
    offers: {
      intro: 'Your plan is active. These one-time packs are charged once to the card you just used, in one click.',
      oneTime: 'one-time payment',
      buy: 'Add for {{price}}',
      bought: 'Added to your account.',
      continue: 'Continue to my account',
      sureTitle: 'Are you sure?',
      sureText: 'These prices are only shown once, right after your purchase.',
      sureStay: 'Stay and see the offers',
      sureLeave: 'Skip the offers',
    },
    cancel: {
      explain: 'Enter the email you paid with. We send a 6-digit code to confirm it is you; no sign-in needed.',
      sendCode: 'Send code',
      tryAnother: 'Try another email',
      codeSent: 'We sent a 6-digit code to {{email}}. It also works as a one-click link in the email.',
      codeLabel: 'Code from the email',
      confirm: 'Cancel my subscription',
    },
    onboarding: {
      next: 'Next',
      back: 'Back',
      continue: 'Continue',
      slideOf: 'Slide {{current}} of {{total}}',
      slides: [
        {
          title: 'Discover the heritage your face resembles',
          text: 'One selfie, a few seconds, and an estimate of which population groups your features look most like.',
        },
        {
          title: 'Built on facial structure',
          text: 'We measure regions such as eyes, nose, lips and jaw, and compare them with faces from seven population groups. You see how sure the estimate is.',
        },
        {
          title: 'Private by design',
          text: 'Your photo is processed and not stored. We do not collect biometric data. This is an estimate of visual resemblance, not a genetic test.',
        },
      ],
      consentTitle: 'Before we take your photo',
      consentAnalysis:
        'I agree that {{product}} analyses my face photo to estimate its visual resemblance to population groups. I understand this is not a genetic or ancestry test, and that the photo is processed and not stored.',
      consentAge: 'I confirm that I am 18 years old or older.',
      consentHint: 'Both boxes are needed before the camera opens.',
      cameraTipTitle: 'Take a photo',
      cameraTips: [
        'Face the camera, with your whole face inside the oval',
        'Take off glasses and anything covering your face',
        'Only one person in the photo',
      ],
      openCamera: 'Open the camera',
      uploadInstead: 'Upload a photo instead',
      selfieTitle: 'Take a selfie',
      capture: 'Take photo',
      retake: 'Retake',
      usePhoto: 'Use this photo',
      cameraUnavailable: "We couldn't open your camera. You can upload a photo instead.",
      choosePhoto: 'Choose a photo',
      photoPreviewAlt: 'Your photo',
      photoUnreadable: "We couldn't read that file. Please choose a JPEG, PNG or WebP photo.",
      processingTitle: 'Analysing your photo',
      processingRetake: 'Retake photo',
      emailTitle: 'Where should we send your results?',
      emailLabel: 'Email',
      emailPlaceholder: 'you@example.com',
      emailSubmit: 'See my results',
      emailPrivacy: 'We use your email for your results and receipts only.',
    },
    footer: { cookies: 'Cookie policy', privacy: 'Privacy policy', terms: 'Terms of use' },
  },
  signIn: {
    checking: 'Checking your sign-in…',
    google: 'Continue with Google',
    apple: 'Continue with Apple',
    emailLabel: 'Email for a one-time code',
    sendCode: 'Email me a code',
    codeSent: 'We sent a 6-digit code to {{email}}.',
    codeLabel: 'Code',
    verify: 'Sign in',
  },
  webapp: {
    home: {
      signedInAs: 'Signed in as {{email}}',
      sections: 'Sections',
      signOut: 'Sign out',
      deleteMyData: 'Delete my data',
      deleteConfirm: 'Delete your account, reports and profile? Purchases stay on record; cancel subscriptions first.',
      deleteYes: 'Delete everything',
      deleteNo: 'Keep my data',
    },
    profile: { name: 'Name', birthDate: 'Date of birth', birthTime: 'Time of birth', update: 'Update', saved: 'Profile updated' },
    subscriptions: {
      none: 'No subscriptions',
      status: 'Status',
      nextCharge: 'Next charge',
      noNextCharge: 'none',
      cancel: 'Cancel subscription',
      confirmTitle: 'Cancel this subscription? Access stays until the paid period ends.',
      confirm: 'Yes, cancel',
      keep: 'Keep it',
    },
  },
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
