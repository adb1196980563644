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
  somethingWentWrong: 'Something went wrong',
  cantCreateSubscription: 'Something went wrong, cant create subscription',
  finalizeError: 'Finalize error',
  noSubscriptionData: 'No subscription data',
  applePayNotAvailable: 'Apple Pay is not available',
  paymentPending: 'Payment pending',
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
  invalidWebhookSignature: 'Invalid webhook signature',
  invalidWebhookBody: 'Invalid webhook body',
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
  network: 'Network Error',
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
