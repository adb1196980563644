/**
 * Wire formats of the payment gateway sandbox (`apps/gateway`): the client API the checkout SDK
 * speaks (checkout-spec §7), the vault the secure-field frames post card data to, and the merchant
 * API `apps/server` calls server-to-server. ADR 010 explains the protocol.
 *
 * Conventions:
 * - Money is `{ value, currency }` with `value` in **minor units** (cents): USD 24.99 is `{ value: 2499, currency: 'USD' }`.
 * - Every mutating call carries an {@link GATEWAY_HEADERS.idempotencyKey} header; a repeated key replays the first answer.
 * - Client calls (SDK, frames) authenticate with `authorization: Bearer <bearerToken>` from the session;
 *   merchant calls with `x-api-key: <GATEWAY_MERCHANT_SECRET>`.
 * - Errors answer `gatewayErrorSchema` with a code from {@link GATEWAY_ERROR_CODES}; every answer carries `x-request-id`.
 */

import { z } from 'zod';
import {
  GATEWAY_WINDOW_MESSAGE_TYPE,
  GATEWAY_ERROR_CODES,
  CARD_NETWORKS,
  type PAYMENT_METHOD_CODES,
  INSTRUMENT_STATUSES,
  EXECUTION_STATUSES,
  FINAL_EXECUTION_STATUSES,
  FAILURE_REASONS,
  DECLINE_CODES,
  DISPUTE_REASONS,
  DISPUTE_STATUSES,
  WEBHOOK_EVENT_TYPES,
  CARD_VERIFICATION_AMOUNT,
  CARD_VERIFICATION_METHODS,
} from './gateway-constants';

export * from './gateway-constants';

// ---------------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

export const gatewayErrorCodeSchema = z.enum(GATEWAY_ERROR_CODES);
export type GatewayErrorCode = z.infer<typeof gatewayErrorCodeSchema>;

/** The one error body: `{ error, code, requestId? }` (plus `details` for validation errors). */
export const gatewayErrorSchema = z.object({
  error: z.string(),
  code: gatewayErrorCodeSchema,
  requestId: z.string().optional(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type GatewayError = z.infer<typeof gatewayErrorSchema>;

// ---------------------------------------------------------------------------------------------
// Shared entities (checkout-spec §3)
// ---------------------------------------------------------------------------------------------

export const cardNetworkSchema = z.enum(CARD_NETWORKS);
export type CardNetwork = z.infer<typeof cardNetworkSchema>;

/** Money in minor units. */
export const amountSchema = z.object({
  /** Minor units (cents), e.g. 2499 for 24.99. */
  value: z.number().int().min(0).max(100_000_000),
  /** ISO 4217 code, upper case, e.g. `USD`. */
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD'),
});
export type Amount = z.infer<typeof amountSchema>;

export const paymentMethodCodeSchema = z.string().min(1).max(64);
export type PaymentMethodCode = (typeof PAYMENT_METHOD_CODES)[number] | (string & {});

export const integrationTypeSchema = z.enum(['api', 'hpp']);
export type IntegrationType = z.infer<typeof integrationTypeSchema>;

/** Apple-type wallet configuration (checkout-spec §3, §9). */
export const applePayConfigSchema = z.object({
  countryCode: z.string(),
  supportedNetworks: z.array(z.string()),
  merchantCapabilities: z.array(z.string()),
  requiredBillingContactFields: z.array(z.string()),
  merchantIdentifier: z.string(),
});
/** Google-type wallet configuration: what the SDK needs for a PaymentDataRequest (API 2.0). */
export const googlePayConfigSchema = z.object({
  gateway: z.string(),
  gatewayMerchantId: z.string(),
  merchantName: z.string(),
  allowedCardNetworks: z.array(z.string()),
  allowedAuthMethods: z.array(z.string()),
  environment: z.enum(['TEST', 'PRODUCTION']),
});
/** PayPal configuration (checkout-spec §3). */
export const payPalConfigSchema = z.object({
  clientId: z.string(),
  captureMode: z.enum(['Instant', 'Manual']),
  integrationMode: z.enum(['express', 'standard']),
});

/** A payment method enabled for a session. */
export const enabledPaymentMethodSchema = z.object({
  code: paymentMethodCodeSchema,
  integrationType: integrationTypeSchema,
  /** Display label (redirect methods); the SDK falls back to the code. */
  label: z.string().optional(),
  /** Hosted-page methods have `flow: 'redirect'`; pix opens a popup (`popup: true`). */
  clientConfig: z.object({ flow: z.enum(['redirect']).optional(), popup: z.boolean().optional() }).optional(),
  applePay: applePayConfigSchema.optional(),
  googlePay: googlePayConfigSchema.optional(),
  payPal: payPalConfigSchema.optional(),
});
export type EnabledPaymentMethod = z.infer<typeof enabledPaymentMethodSchema>;

export const instrumentStatusSchema = z.enum(INSTRUMENT_STATUSES);
export type InstrumentStatus = z.infer<typeof instrumentStatusSchema>;

/** Issuer country as the BIN lookup and stored instruments report it. */
export const issuerCountrySchema = z.object({ code: z.string().length(2) });

/** BIN lookup result (checkout-spec §3, §7). */
export const binLookupResultSchema = z.object({
  /** First 6–8 digits. */
  bin: z.string(),
  /** Detected network; absent when unknown. */
  network: cardNetworkSchema.optional(),
  issuerCountry: issuerCountrySchema.optional(),
});
export type BinLookupResult = z.infer<typeof binLookupResultSchema>;

/** BIN lookup request: digits only after removing dashes, spaces and X (at least 6). */
export const binLookupRequestSchema = z.object({ bin: z.string().regex(/^[0-9 Xx-]{6,}$/, 'must hold at least 6 digits') });

/** A stored instrument: only non-sensitive data (checkout-spec §3). */
export const storedInstrumentSchema = z.object({
  id: z.string(),
  /** e.g. `Visa •••• 4242`. */
  displayName: z.string(),
  paymentMethod: z.literal('card'),
  status: instrumentStatusSchema,
  holderReference: z.string(),
  /** `CardOnFile`, `Subscription` or `UnscheduledCardOnFile`. */
  futureUsage: z.string(),
  data: z.object({
    network: cardNetworkSchema.optional(),
    bin: z.string(),
    last4: z.string().length(4),
    binLookup: z.object({ issuerCountry: issuerCountrySchema }),
  }),
  createdAt: z.iso.datetime(),
});
export type StoredInstrument = z.infer<typeof storedInstrumentSchema>;
export const storedInstrumentListSchema = z.object({ items: z.array(storedInstrumentSchema) });

/** Country asset entry (checkout-spec §3). */
export const countrySchema = z.object({
  code: z.string().length(2),
  name: z.string(),
  iso3: z.string().length(3),
  timezones: z.array(z.string()),
  showPostalCode: z.boolean(),
  /** Source of a RegExp for the postal code; absent when the country has no known format. */
  postalCodeRegex: z.string().optional(),
});
export type Country = z.infer<typeof countrySchema>;
export const countryListSchema = z.array(countrySchema);

// ---------------------------------------------------------------------------------------------
// Executions (checkout-spec §3, §4)
// ---------------------------------------------------------------------------------------------

export const executionStatusSchema = z.enum(EXECUTION_STATUSES);
export type ExecutionStatus = z.infer<typeof executionStatusSchema>;

export const declineCodeSchema = z.enum(DECLINE_CODES);
export type DeclineCode = z.infer<typeof declineCodeSchema>;

/** One error of a final state: the SDK shows `reason.result` (checkout-spec §8). */
export const executionErrorSchema = z.object({
  reason: z.object({
    /** Human-readable message, e.g. `Your card has insufficient funds.`. */
    result: z.string(),
    code: declineCodeSchema,
    /** Failure reason category (checkout-spec §3). */
    type: z.enum(FAILURE_REASONS),
  }),
});

export const finalStateSchema = z.object({
  /** One of the final statuses. */
  code: z.enum(FINAL_EXECUTION_STATUSES),
  /** Empty unless failed. */
  errors: z.array(executionErrorSchema),
});
export type FinalState = z.infer<typeof finalStateSchema>;

/** A 3-D Secure action: open `href` in a popup sized by the SDK (checkout-spec §9), or redirect to it. */
export const threeDsActionSchema = z.object({
  href: z.url(),
  /** `popup` is preferred; `redirect` when the SDK cannot open one. Both URLs work either way. */
  mode: z.enum(['popup', 'redirect']),
  /** The origin the completion message comes from; check `event.origin` against it. */
  messageOrigin: z.string(),
});

/** Confirm link: POST {@link confirmRequestSchema} here; `action.parameters` carry the wallet/PayPal ids. */
export const confirmLinkSchema = z.object({
  href: z.url(),
  action: z.object({
    type: z.enum(['payPalApproval', 'googlePayPaymentData']),
    parameters: z.object({ orderId: z.string().optional(), tokenId: z.string().optional() }),
  }),
});

export const executionLinksSchema = z.object({
  /** GET: poll this. */
  execution: z.url(),
  /** POST {@link authorizeRequestSchema} here. */
  authorize: z.url(),
  confirm: confirmLinkSchema.optional(),
  /** Hosted payment page or pix page; present when pending on a redirect method. */
  redirect: z.url().optional(),
  threeDS: threeDsActionSchema.optional(),
});

export const refundSchema = z.object({
  id: z.string(),
  executionId: z.string(),
  amount: amountSchema,
  reason: z.string().optional(),
  status: z.literal('succeeded'),
  createdAt: z.iso.datetime(),
});
export type Refund = z.infer<typeof refundSchema>;

/**
 * A dispute (chargeback) the cardholder's bank opened on a successful execution, for the whole
 * amount. The merchant answers with evidence by `evidenceDueBy` or loses it.
 */
export const disputeSchema = z.object({
  id: z.string(),
  executionId: z.string(),
  amount: amountSchema,
  reason: z.enum(DISPUTE_REASONS),
  status: z.enum(DISPUTE_STATUSES),
  evidenceDueBy: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  /** When the status last changed (orders `execution.disputeUpdated` deliveries); absent on older payloads. */
  updatedAt: z.iso.datetime().optional(),
  /** When the merchant's evidence reached the bank, once it did. */
  evidenceSubmittedAt: z.iso.datetime().nullable().optional(),
  /** When the dispute ended (won, lost or accepted), once it did. */
  closedAt: z.iso.datetime().nullable().optional(),
});
export type Dispute = z.infer<typeof disputeSchema>;
export type DisputeStatus = Dispute['status'];
export type DisputeReason = Dispute['reason'];

/** Instrument summary on an execution (never card data). */
export const executionInstrumentSchema = z.object({
  id: z.string(),
  network: cardNetworkSchema.optional(),
  bin: z.string(),
  last4: z.string(),
  status: instrumentStatusSchema,
});

/** A payment execution as the SDK polls it and the merchant verifies it. */
export const executionSchema = z.object({
  id: z.string(),
  status: executionStatusSchema,
  amount: amountSchema,
  holderReference: z.string(),
  /** Merchant's own reference from the session or the charge. */
  orderReference: z.string().optional(),
  paymentMethodCode: paymentMethodCodeSchema.optional(),
  integrationType: integrationTypeSchema.optional(),
  /** Instrument used (card payments); with `storeInstrument` it is `enabled` and chargeable later. */
  instrument: executionInstrumentSchema.optional(),
  /** True for merchant-initiated charges (no shopper present). */
  merchantInitiated: z.boolean(),
  /** Present once the status is final. */
  finalState: finalStateSchema.optional(),
  links: executionLinksSchema,
  amountRefunded: z.number().int(),
  refunds: z.array(refundSchema),
  /** The dispute opened on this execution, when there is one. */
  dispute: disputeSchema.optional(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Execution = z.infer<typeof executionSchema>;

const addressLine = z.string().max(200).optional();
/**
 * Billing address of wallet payments (checkout-spec §3): country and postal code, and from the
 * Apple-type billing contact the address fields it maps to.
 */
export const billingAddressSchema = z.object({
  country: z.object({ code: z.string().length(2), name: z.string().optional() }).optional(),
  postalCode: z.string().max(32).optional(),
  first_name: addressLine,
  last_name: addressLine,
  state: addressLine,
  zip: z.string().max(32).optional(),
  city: addressLine,
  address: addressLine,
  address2: addressLine,
  phone: z.string().max(40).optional(),
});
export type BillingAddress = z.infer<typeof billingAddressSchema>;

/** A payment request item of the payment composition (checkout-spec §3). */
export const paymentItemSchema = z.object({
  paymentMethodCode: paymentMethodCodeSchema,
  integrationType: integrationTypeSchema,
  amount: amountSchema.optional(),
  /** Card: keep the instrument for later (its status becomes `enabled`). */
  storeInstrument: z.boolean().default(false),
  /** Card: the instrument id returned by save-instrument (or a stored one). */
  paymentInstrumentId: z.string().optional(),
  installments: z.object({ count: z.number().int().min(1).max(48) }).optional(),
  paymentInstrumentData: z
    .object({
      /** Wallet token (Apple/Google); opaque. A token containing `decline` is declined, `3ds` asks for 3-D Secure (Google). */
      paymentToken: z.unknown().optional(),
      billingAddress: billingAddressSchema.optional(),
      providerData: z.object({ riskSessionCorrelationId: z.string().optional() }).optional(),
    })
    .optional(),
  enrollInstrumentToNetworkOffers: z.boolean().optional(),
});
export type PaymentItem = z.infer<typeof paymentItemSchema>;
export type PaymentItemInput = z.input<typeof paymentItemSchema>;

/** Where the hosted pages send the shopper back (absolute URLs). */
export const returnInfoSchema = z.object({
  success: z.url(),
  cancel: z.url(),
  error: z.url(),
  pending: z.url(),
});
export type ReturnInfo = z.infer<typeof returnInfoSchema>;

/** POST to the authorize link (checkout-spec §7). Exactly one payment item is supported. */
export const authorizeRequestSchema = z
  .object({
    amount: amountSchema,
    paymentComposition: z.array(paymentItemSchema).min(1).max(1),
    returnInfo: returnInfoSchema.optional(),
    meta: z.object({ risk: z.object({ sessionId: z.string().max(200).optional() }).optional() }).optional(),
  })
  .superRefine((request, context) => {
    // A zero amount is a card verification: it must be a card, and it must be kept (ADR 143).
    if (request.amount.value !== CARD_VERIFICATION_AMOUNT) return;
    const [item] = request.paymentComposition;
    if (item && item.paymentMethodCode !== 'card')
      context.addIssue({
        code: 'custom',
        path: ['paymentComposition', 0, 'paymentMethodCode'],
        message: 'a zero amount verifies a card: only card can be authorized for nothing',
      });
    if (item && !item.storeInstrument)
      context.addIssue({
        code: 'custom',
        path: ['paymentComposition', 0, 'storeInstrument'],
        message: 'a zero amount verifies a card to store: storeInstrument must be true',
      });
  });
export type AuthorizeRequest = z.infer<typeof authorizeRequestSchema>;
/** What a client sends (defaults such as `storeInstrument: false` may be omitted). */
export type AuthorizeRequestInput = z.input<typeof authorizeRequestSchema>;

/** POST to the confirm link (PayPal approval, Google payment data). */
export const confirmRequestSchema = z.object({
  data: z.object({
    orderId: z.string().optional(),
    tokenId: z.string().optional(),
    riskSessionCorrelationId: z.string().optional(),
    /** Google-type wallet payment data token. */
    paymentToken: z.unknown().optional(),
    /** Set to simulate a PayPal cancel / error: the execution fails. */
    cancelled: z.boolean().optional(),
  }),
});
export type ConfirmRequest = z.infer<typeof confirmRequestSchema>;

/**
 * Message the 3-D Secure, pix and hosted pages post to `window.opener` when done. Accept it only
 * when `event.origin` equals the session's `gatewayOrigin`; then poll the execution again.
 */
export const gatewayWindowMessageSchema = z.object({
  type: z.literal(GATEWAY_WINDOW_MESSAGE_TYPE),
  /** `threeDS`, `pix` or `hpp`. */
  source: z.enum(['threeDS', 'pix', 'hpp']),
  executionId: z.string(),
  /** Status after completion; the SDK still polls for the truth. */
  status: executionStatusSchema,
  /** `success`, `cancel`, `error` or `pending` — which return URL applies. */
  outcome: z.enum(['success', 'cancel', 'error', 'pending']),
});
export type GatewayWindowMessage = z.infer<typeof gatewayWindowMessageSchema>;

// ---------------------------------------------------------------------------------------------
// Sessions: merchant creates, SDK initialises with the answer
// ---------------------------------------------------------------------------------------------

/** Merchant API `POST /merchant/v1/sessions`. */
export const createSessionRequestSchema = z
  .object({
    /** `{ value: 0 }` opens a card verification ("save card"): card only, stored for the holder (ADR 143). */
    amount: amountSchema,
    /** Opaque shopper reference of the merchant (no email in clear); instruments are stored per holder. */
    holderReference: z.string().min(1).max(200),
    orderReference: z.string().max(200).optional(),
    /**
     * Enabled method codes, in display order; default card, applePay, googlePay, payPal, genericRedirect,
     * pix (a zero-amount session: card, the only one it may name).
     */
    paymentMethods: z.array(paymentMethodCodeSchema).min(1).optional(),
    /** Default `US` (Apple-type wallet country). */
    countryCode: z.string().length(2).optional(),
    /** Lifetime of the first bearer token, at most the gateway's session lifetime; default that lifetime. */
    tokenTtlSeconds: z.number().int().min(1).max(86_400).optional(),
  })
  .superRefine((request, context) => {
    if (request.amount.value !== CARD_VERIFICATION_AMOUNT || !request.paymentMethods) return;
    const others = request.paymentMethods.filter((code) => !(CARD_VERIFICATION_METHODS as readonly string[]).includes(code));
    if (others.length > 0)
      context.addIssue({
        code: 'custom',
        path: ['paymentMethods'],
        message: `a zero-amount session verifies a card: ${others.join(', ')} cannot be offered for nothing`,
      });
  });
export type CreateSessionRequest = z.infer<typeof createSessionRequestSchema>;

/**
 * `POST /merchant/v1/sessions/token` (merchant API): a fresh bearer token for the same session
 * (and so the same execution), proven by the session's last token — expired, but signed by the
 * gateway and no older than the refresh window.
 */
export const refreshSessionTokenRequestSchema = z.object({ bearerToken: z.string().min(1).max(4_096) });
export type RefreshSessionTokenRequest = z.infer<typeof refreshSessionTokenRequestSchema>;
export const refreshSessionTokenResponseSchema = z.object({
  sessionId: z.string(),
  bearerToken: z.string(),
  expiresAt: z.iso.datetime(),
});
export type RefreshSessionTokenResponse = z.infer<typeof refreshSessionTokenResponseSchema>;

/**
 * What the SDK's client init needs (checkout-spec §3 "client init options"): the merchant returns
 * the whole object from its own session endpoint; `bearerToken` goes to `getBearerToken`.
 */
export const sdkInitPayloadSchema = z.object({
  sessionId: z.string(),
  /** HS256 JWT; `exp` claim in seconds. Send as `authorization: Bearer …`. */
  bearerToken: z.string(),
  expiresAt: z.iso.datetime(),
  /** Gateway origin: secure frames, pages and window messages come from here. */
  gatewayOrigin: z.string(),
  /** Vault base URL (no trailing slash). */
  vaultURL: z.url(),
  vaultProviderConfigId: z.string(),
  executionId: z.string(),
  amount: amountSchema,
  holderReference: z.string(),
  paymentMethods: z.array(enabledPaymentMethodSchema),
  links: z.object({
    execution: z.url(),
    authorize: z.url(),
    /** POST {@link saveInstrumentRequestSchema}. */
    saveInstrument: z.url(),
    /** POST {@link binLookupRequestSchema}. */
    binLookup: z.url(),
    /** GET the holder's stored instruments. */
    instruments: z.url(),
    /** GET the countries asset. */
    countries: z.url(),
    /** POST {@link applePaySessionRequestSchema}. */
    applePaySession: z.url(),
    /** POST {@link vaultTokenizeRequestSchema} (secure-field frames only). */
    tokenize: z.url(),
  }),
});
export type SdkInitPayload = z.infer<typeof sdkInitPayloadSchema>;
/** Merchant create-session answer: the SDK init payload. */
export const createSessionResponseSchema = sdkInitPayloadSchema;
export type CreateSessionResponse = SdkInitPayload;

/** Claims of the bearer token. */
export const bearerTokenClaimsSchema = z.object({
  sub: z.string(),
  holder: z.string(),
  exp: z.number(),
  iat: z.number(),
  iss: z.string(),
  aud: z.string(),
});

// ---------------------------------------------------------------------------------------------
// Vault
// ---------------------------------------------------------------------------------------------

/**
 * `POST {vaultURL}/v1/tokens` — only from the gateway-origin secure-field frames (CORS allows
 * no other origin). Card data never leaves the vault again.
 */
export const vaultTokenizeRequestSchema = z.object({
  cardNumber: z.string().min(1).max(32),
  /** 1–12. */
  expiryMonth: z.union([z.string(), z.number()]),
  /** YY or YYYY. */
  expiryYear: z.union([z.string(), z.number()]),
  cvv: z.string().min(1).max(8),
  cardholderName: z.string().max(120).optional(),
});
export type VaultTokenizeRequest = z.infer<typeof vaultTokenizeRequestSchema>;

export const vaultTokenizeResponseSchema = z.object({
  /** Opaque reference; pass as `data.encryptedData` to save-instrument. Valid 15 minutes, one instrument. */
  token: z.string(),
  network: cardNetworkSchema,
  bin: z.string(),
  last4: z.string().length(4),
  expiresAt: z.iso.datetime(),
});
export type VaultTokenizeResponse = z.infer<typeof vaultTokenizeResponseSchema>;

/** Save-instrument body (checkout-spec §3); `data.encryptedData` is the vault token. */
export const saveInstrumentRequestSchema = z.object({
  holderReference: z.string().min(1).max(200),
  paymentMethod: z.literal('card'),
  storeInstrument: z.boolean().default(false),
  futureUsage: z.enum(['CardOnFile', 'Subscription', 'UnscheduledCardOnFile']).default('CardOnFile'),
  data: z.object({
    encryptedData: z.string().min(1).max(200),
    vaultProviderConfigId: z.string().min(1),
  }),
});
export type SaveInstrumentRequest = z.infer<typeof saveInstrumentRequestSchema>;
export type SaveInstrumentRequestInput = z.input<typeof saveInstrumentRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Wallets
// ---------------------------------------------------------------------------------------------

/** `POST /v1/wallets/apple-pay/session` (checkout-spec §7 "Apple-type session"). */
export const applePaySessionRequestSchema = z.object({
  integrationType: integrationTypeSchema,
  paymentMethodCode: z.literal('applePay'),
  amount: amountSchema,
  meta: z.object({ sessionURL: z.url() }).optional(),
  clientContext: z.object({ host: z.string().min(1) }),
});

/** The Apple-type merchant session object (opaque to the SDK; passed to completeMerchantValidation). */
export const applePayMerchantSessionSchema = z.object({
  epochTimestamp: z.number(),
  expiresAt: z.number(),
  merchantSessionIdentifier: z.string(),
  nonce: z.string(),
  merchantIdentifier: z.string(),
  domainName: z.string(),
  displayName: z.string(),
  signature: z.string(),
});

/** Answer of the Apple-type session call: the payment request the SDK starts the session with. */
export const applePaySessionResponseSchema = z.object({
  paymentRequest: z.object({
    countryCode: z.string(),
    currencyCode: z.string(),
    supportedNetworks: z.array(z.string()),
    merchantCapabilities: z.array(z.string()),
    requiredBillingContactFields: z.array(z.string()),
    total: z.object({ label: z.string(), amount: z.string(), type: z.literal('final') }),
  }),
  /** Session version (checkout-spec §9: 3). */
  version: z.number().int(),
});

/**
 * Merchant validation (`POST /merchant/v1/wallets/apple-pay/merchant-validation`, server-to-server,
 * or `POST /v1/wallets/apple-pay/merchant-validation` with the bearer token).
 */
export const merchantValidationRequestSchema = z.object({
  requestUrl: z.string().min(1).optional(),
  /** The validation URL Apple's JS gave the page. */
  sessionUrl: z.url(),
  clientDomain: z.string().min(1),
});
/** Answer: `data` is the merchant session object (so `response.data.data` with axios). */
export const merchantValidationResponseSchema = z.object({ data: applePayMerchantSessionSchema });
export type MerchantValidationResponse = z.infer<typeof merchantValidationResponseSchema>;

/** Google-type wallet: `POST /v1/wallets/google-pay/payment-data-request` answers a PaymentDataRequest (API 2.0). */
export const googlePayPaymentDataRequestSchema = z.object({
  apiVersion: z.literal(2),
  apiVersionMinor: z.literal(0),
  allowedPaymentMethods: z.array(z.unknown()),
  merchantInfo: z.object({ merchantName: z.string(), merchantId: z.string() }),
  transactionInfo: z.object({
    totalPriceStatus: z.literal('FINAL'),
    totalPrice: z.string(),
    currencyCode: z.string(),
    countryCode: z.string(),
  }),
});

// ---------------------------------------------------------------------------------------------
// Merchant API (server-to-server)
// ---------------------------------------------------------------------------------------------

/** `POST /merchant/v1/charges`: charge a stored instrument without the shopper (renewals, one-click offers). */
export const merchantChargeRequestSchema = z.object({
  instrumentId: z.string().min(1),
  holderReference: z.string().min(1).max(200),
  /** At least one minor unit: a charge moves money; a card is verified by a zero-amount session with the shopper (ADR 143). */
  amount: amountSchema.extend({
    value: amountSchema.shape.value.min(1, 'a merchant-initiated charge moves money: verify a card with a zero-amount session instead'),
  }),
  orderReference: z.string().max(200).optional(),
  /** `recurring` for renewals, `unscheduled` for one-click offers. */
  reason: z.enum(['recurring', 'unscheduled']).default('unscheduled'),
});
export type MerchantChargeRequest = z.infer<typeof merchantChargeRequestSchema>;
export type MerchantChargeRequestInput = z.input<typeof merchantChargeRequestSchema>;

/** `POST /merchant/v1/executions/{id}/refunds`; omit `amount` for the whole remainder. */
export const merchantRefundRequestSchema = z.object({
  amount: amountSchema.optional(),
  reason: z.string().max(200).optional(),
});
export type MerchantRefundRequest = z.infer<typeof merchantRefundRequestSchema>;

/** One dated fact of the customer's history sent as evidence (consent, receipt, sign-in, report view). */
export const disputeEvidenceEntrySchema = z.object({
  at: z.iso.datetime(),
  kind: z.string().min(1).max(64),
  detail: z.string().max(500),
});

/**
 * `POST /merchant/v1/disputes/{id}/evidence`: the merchant's answer, while the dispute is
 * `needs_response` and before `evidenceDueBy`. Moves it to `under_review`.
 */
export const disputeEvidenceRequestSchema = z.object({
  text: z.string().trim().min(1).max(20_000),
  timeline: z.array(disputeEvidenceEntrySchema).max(1_000).default([]),
});
export type DisputeEvidenceRequest = z.input<typeof disputeEvidenceRequestSchema>;

/**
 * `POST /merchant/v1/disputes/{id}/decision` (sandbox only): the bank's decision, as Adyen's
 * CHARGEBACK_REVERSED (`won`) and SECOND_CHARGEBACK (`lost`, also after a win) notifications.
 */
export const disputeDecisionRequestSchema = z.object({ outcome: z.enum(['won', 'lost']) });
export type DisputeDecisionRequest = z.infer<typeof disputeDecisionRequestSchema>;

/**
 * `GET /merchant/v1/executions`: executions changed at or after `since` (ISO time), oldest change
 * first, `limit` per page; `cursor` is the previous page's `nextCursor` (opaque). The merchant's
 * sweep reads it to find payments it never heard of (ADR 127).
 */
export const executionListQuerySchema = z.object({
  since: z.iso.datetime({ offset: true }).optional(),
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ExecutionListQuery = z.input<typeof executionListQuerySchema>;

/** One execution of the listing: what a merchant needs to tie it to its purchase, nothing of the card. */
export const executionListItemSchema = z.object({
  id: z.string(),
  status: executionStatusSchema,
  amount: amountSchema,
  amountRefunded: z.number().int(),
  holderReference: z.string(),
  /** Merchant's own reference from the session or the charge. */
  orderReference: z.string().optional(),
  merchantInitiated: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ExecutionListItem = z.infer<typeof executionListItemSchema>;

export const executionListSchema = z.object({
  items: z.array(executionListItemSchema),
  /** Null on the last page. */
  nextCursor: z.string().nullable(),
});
export type ExecutionList = z.infer<typeof executionListSchema>;

// ---------------------------------------------------------------------------------------------
// Webhooks
// ---------------------------------------------------------------------------------------------

export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);

/**
 * Webhook body, POSTed as JSON to each GATEWAY_WEBHOOK_URLS entry, signed with
 * {@link GATEWAY_HEADERS.webhookSignature}. Delivery is at least once: deduplicate on `id`.
 */
export const webhookPayloadSchema = z.object({
  id: z.string(),
  type: webhookEventTypeSchema,
  createdAt: z.iso.datetime(),
  data: z.object({
    execution: executionSchema,
    refund: refundSchema.optional(),
    /** On `execution.disputeOpened` and `execution.disputeUpdated`: the dispute (also on `execution.dispute`). */
    dispute: disputeSchema.optional(),
  }),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
