import type { ProductCopy } from './config';

// Runtime values the web client needs, kept free of zod so its bundle stays small.

/** Current version of the app; logged at start (product-spec §9). */
export const APP_VERSION = '0.42.12';

/** Digits of every one-time code we email: sign-in, access recovery and cancellation. */
export const EMAIL_CODE_LENGTH = 6;

/** Marketing copy defaults: the claims product-spec §1 requires. */
export const DEFAULT_PRODUCT_COPY: ProductCopy = {
  headline: 'Discover the heritage your face resembles',
  discountClaim: 'Get 85% Discount Today',
  // product-spec §1 lists a '7-day trial'; no plan of §9 has one, so the default says the trial sold (ADR 100).
  trialClaim: '3-day trial',
  guaranteeClaim: '100% money back guarantee',
  guaranteeText:
    'Not happy with your 3-day trial? Write to us within 30 days of payment and get 100% of your money back, no questions asked.',
  renewalClaim: 'Your plan renews automatically every week until cancelled.',
  usersClaim: '1.2 Million',
  privacyClaim: 'Your photo is processed and not stored.',
  biometricClaim: 'We do not collect biometric data.',
};
