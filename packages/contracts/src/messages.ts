// `.js` names: packages/analysis type-checks this file under NodeNext resolution (ADR 133); every
// other reader (bundler resolution, Vite, esbuild, tsx) maps them to the .ts sources.
import type { FaceCheckErrorCode } from './face-check.js';
import { GATEWAY_UNAUTHORIZED_MESSAGE, VAULT_INVALID_TOKEN_MESSAGE } from './gateway-constants.js';

// Words more than one catalogue says. Plain constants, so a bundle that takes one catalogue (the
// checkout SDK takes CHECKOUT_MESSAGES only) does not carry the others.
const SOMETHING_WENT_WRONG = 'Something went wrong';
const APPLE_PAY_NOT_AVAILABLE = 'Apple Pay is not available';
const PAYMENT_PENDING = 'Payment pending';
const NETWORK_ERROR = 'Network Error';

/**
 * Every user-facing message of the product spec (§4, §5, §8), in one place.
 * `{product}` is replaced with the configured product name by {@link formatMessage}.
 */
export const MESSAGES = {
  fieldRequired: 'This field is required!',
  maxLength: 'You have reached the maximum length',
  invalidEmail: 'Please enter a valid email',
  discoverNotAccepted: 'Discover cards are not accepted.',
  fillInField: 'Fill in the field',
  accountNotExistTitle: 'Unfortunately, such an account does not exist.',
  accountNotExistDescription: 'You have no registered account yet. Start on the home page to get your report.',
  joinProductNow: 'Join {product} now',
  notNow: 'Not now',
  noSubscriptions: 'No subscriptions',
  noSubscriptionsDescription: 'No plan is attached to this email. Please check the email address.',
  checkYourEmail: 'Check your email',
  subscriptionCanceled: 'Your subscription has been canceled',
  unknownPlan: "Can't find a plan for the parameter '{parameter}'",
  somethingWentWrong: SOMETHING_WENT_WRONG,
  cantCreateSubscription: 'Something went wrong, cant create subscription',
  finalizeError: 'Finalize error',
  noSubscriptionData: 'No subscription data',
  applePayNotAvailable: APPLE_PAY_NOT_AVAILABLE,
  paymentPending: PAYMENT_PENDING,
  notFoundTitle: '404',
  notFoundHeading: 'Page Not Found',
  notFoundDescription: 'The page you are looking for does not exist or has moved. Check the address, or go back to the start.',
  processingMappingFace: 'Mapping your facial structure…',
  processingTracingHeritage: 'Tracing heritage patterns…',
  processingBuildingProfile: 'Building your ancestry profile…',
  cameraTipLighting: 'Attention: lighting must be natural',
  carouselTip: 'Rotate circles and tap to select section',
  feedbackTitle: 'Tell us your feedback please',
  findOutFuture: 'Find out what future brings you',
} as const;

export type MessageKey = keyof typeof MESSAGES;

/**
 * The server's answers beyond the spec's catalogue (reports, ownership, limits, uploads). Apart from
 * {@link MESSAGES} so that the web's first paint, which imports MESSAGES, does not carry them.
 */
export const API_MESSAGES = {
  notFound: 'Not found',
  reportNotFound: 'Report not found',
  reportNotReady: 'The report is not ready yet',
  subscriptionOfAnotherUser: 'The subscription belongs to another user',
  userIdNotSignedInUser: 'userId is not the signed-in user',
  imageNotBase64: 'Invalid body: image must be base64',
  insightsNeedSignOrBirthDate: 'Invalid querystring: sign or birthDate is required',
  tooManyRequestsForEmail: 'Too many requests for this email, try again later',
  tooManyRequests: 'Too many requests, retry in {after}',
  photoContentType: 'Send the photo as image/* or application/octet-stream',
  /** 503 + Retry-After: the analysis queue of this server is full (ADR 165). */
  analysisBusy: 'We are checking a lot of photos right now. Please try again in a few seconds.',
  /** 429 + Retry-After: this address already holds its share of the analysis queue (ADR 165). */
  analysisShareUsed: 'Your earlier photos are still being checked. Please wait for them, then try again.',
  invalidWebhookSignature: 'Invalid webhook signature',
  invalidWebhookBody: 'Invalid webhook body',
  tooManyCheckouts: 'Too many checkouts are starting right now, try again in a minute',
  /** The checkout is under pressure: the browser solves a small proof-of-work and asks again (ADR 160). */
  checkoutChallenge: 'Many checkouts are starting right now: this browser proves it is one of them, then the checkout opens',
  alreadyOwned: 'You already have this. Open your account to use it.',
  alreadyOwnedPaidTwice:
    'You already have this, so this second payment was not used: it is refunded to your card automatically within the hour. Open your account to use what you have.',
  /** Issue 35, ADR 196: a plan beside a live plan is not sold; the account changes it instead. */
  alreadyHavePlan: 'You already have a plan. Change it in your account.',
  /** A payment for a plan beside the proven owner's live plan, refunded at once (ADR 196). */
  alreadyOwnedRefunded: 'You already have the {plan} — this payment was refunded.',
  planChangeSamePlan: 'This is your plan already',
  planChangeNotRecurring: 'Only a plan that renews can be chosen',
  planChangeNotRenewing: 'Only a plan that renews can be changed',
  planChangePastDue: 'Update your card first: the last renewal of this plan failed',
  oneTimeNotCancelable: 'A one-time purchase has no renewal to cancel; a refund ends it',
  alreadyEnded: 'This subscription has already ended',
  operatorsOnly: 'Operators only',
  noSubscriptionWithId: 'No subscription with this id',
  noPaidChargeWithId: 'No paid charge with this id',
  noReceiptSent: 'No receipt was sent for this customer',
  refundExceedsCharge: 'The refund exceeds the charge',
  chargeAlreadyRefunded: 'This charge was already refunded',
  // A disputed payment cannot be refunded (issue 36, ADR 182).
  chargeDisputed:
    'This payment is disputed with the card’s bank, so it cannot be refunded while the dispute is open. If the bank decides for the cardholder, the bank returns the money.',
  chargeChargedBack: 'This payment was already returned to the cardholder by their bank (a chargeback), so it cannot be refunded again.',
  disputeNotFound: 'No dispute with this id',
  disputeClosed: 'This dispute has ended: there is nothing more to answer',
  disputePastDue: 'The evidence for this dispute was due by {dueBy}: it can no longer be answered',
  // A new card for a subscription (issue 23, ADR 143).
  cardUpdateNotFound: 'We could not find this subscription in your account.',
  cardUpdateLinkInvalid:
    'This update-card link is not valid or has expired. Sign in to update your card, or use the link in our latest email.',
  cardUpdateEnded: 'This subscription has ended, so there is no card to update.',
  cardUpdateCanceled: 'This subscription is canceled and will not be charged again, so there is no card to update.',
  cardUpdateOneTime: 'A one-time purchase is never charged again, so it has no card to update.',
  cardUpdatePending: 'Your bank has not confirmed the new card yet. Try again in a moment.',
  cardUpdateNotVerified: 'The new card could not be confirmed for this subscription. Please enter it again.',
} as const;

/** Why an analysis failed: a face-check code of the photo, or the engine's own fault. */
export type AnalysisErrorCode = FaceCheckErrorCode | 'INTERNAL';

/**
 * What the shopper reads when the analysis refuses a photo (packages/analysis answers the code only;
 * the server picks the text here, ADR 133).
 */
export const ANALYSIS_ERROR_MESSAGES: Record<AnalysisErrorCode, string> = {
  UNSUPPORTED_IMAGE_FORMAT: 'We can only read JPEG, PNG and WebP photos. Please upload your selfie in one of these formats.',
  NOT_AN_IMAGE: "This file doesn't look like a photo. Please upload a JPEG, PNG or WebP image.",
  CORRUPT_IMAGE: "We couldn't open this photo; the file seems damaged. Please try another one.",
  IMAGE_TOO_LARGE: 'This photo is too large. Please upload one under 15 MB and 40 megapixels.',
  NO_FACE: "We couldn't find a face in this photo. Try again with your face centred and well lit.",
  MULTIPLE_FACES: 'We found more than one face. Choose yours, or use a photo with just you in it.',
  CHOSEN_FACE_NOT_FOUND: "We couldn't find the face you chose in this photo. Please choose it again, or use another photo.",
  FACE_TOO_SMALL: 'Your face is too small in this photo. Move closer to the camera, or crop the photo around your face.',
  TOO_DARK: 'This photo is too dark for us to see your face. Try again somewhere brighter.',
  TOO_BLURRY: 'This photo is too blurry. Hold the camera steady and make sure your face is in focus.',
  INTERNAL: 'Something went wrong on our side. Please try again in a moment.',
};

/**
 * What the checkout SDK (packages/checkout) shows shoppers and tells integrators, from the checkout
 * spec where it gives the words. Its own catalogue, so the SDK's bundle carries only these (ADR 133).
 */
export const CHECKOUT_MESSAGES = {
  authorizationFailed: 'Authorization Failed',
  authorizationFailedToast: 'Authorization failed, please try again.',
  authorizationFailedAfter3ds: 'Authorization failed after 3DS challenge.',
  paymentSuccessful: 'Payment successful',
  /** A zero-amount session verifies and stores a card (ADR 143): its button and screens say so, never "pay". */
  saveCard: 'Save card',
  cardSaved: 'Card saved',
  cardNotSaved: 'Card not saved',
  paymentPending: PAYMENT_PENDING,
  somethingWentWrong: SOMETHING_WENT_WRONG,
  applePayNotAvailable: APPLE_PAY_NOT_AVAILABLE,
  unauthorized: GATEWAY_UNAUTHORIZED_MESSAGE,
  networkError: NETWORK_ERROR,
  saveInstrumentUrlMissing: 'Save instrument URL not available!',
  invalidToken: VAULT_INVALID_TOKEN_MESSAGE,
  vaultFallback: 'Vault request failed',
  noOrderId: 'No order id returned',
  noConfirmLink: 'No confirm link',
  paymentBlocked: 'Payment blocked by validation',
} as const;

/** Replaces `{name}` placeholders in a catalogue message. */
export function formatMessage(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * The generic request failures of product-spec §8, worded as the spec's HTTP client words them.
 * `{status}`, `{ms}` and `{protocol}` are filled by {@link formatMessage}.
 */
export const REQUEST_FAILURE_MESSAGES = {
  status: 'Request failed with status code {status}',
  network: NETWORK_ERROR,
  aborted: 'Request aborted',
  timeout: 'timeout of {ms}ms exceeded',
  unsupportedProtocol: 'Unsupported protocol {protocol}',
  canceled: 'canceled',
} as const;
export type RequestFailureKind = keyof typeof REQUEST_FAILURE_MESSAGES;

/**
 * The identity error codes of product-spec §8 and what the sign-in screens say for each (the spec
 * leaves the wording open). `popup-blocked` cannot happen with redirect sign-in (ADR 102).
 */
export const IDENTITY_ERROR_MESSAGES = {
  'invalid-email': 'Please enter a valid email',
  'wrong-password': 'That code is not right or has expired. Check the latest email, or ask for a new code.',
  'email-already-in-use': 'This email already belongs to another account. Sign in with that account instead.',
  'user-not-found': 'We could not find an account for this email.',
  'too-many-requests': 'Too many attempts. Please wait a few minutes and try again.',
  'requires-recent-login': 'Please sign in again to continue.',
  'user-disabled': 'This account has been disabled. Write to support if you think this is a mistake.',
  'network-request-failed': 'No connection. Check your internet connection and try again.',
  'popup-blocked': 'Your browser blocked the sign-in window. Allow pop-ups for this site and try again.',
  'unauthorized-domain': 'Sign-in is not allowed from this address. Open the site from its usual address and try again.',
} as const;
export type IdentityErrorCode = keyof typeof IDENTITY_ERROR_MESSAGES;
