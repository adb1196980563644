import type { Page } from '@playwright/test';

/**
 * A browser with Apple Pay, for Chromium: a stand-in of `ApplePaySession` (Apple Pay JS, version 3)
 * that speaks Apple's protocol. `begin()` asks the page for merchant validation with Apple's
 * validation URL; the merchant session the page completes it with is kept; the shopper then
 * "authorizes" and the page receives a `PKPaymentToken` (`paymentData` EC_v1, `paymentMethod`,
 * `transactionIdentifier`) and the billing contact it asked for. Calls are recorded on
 * `window.__applePay`.
 */
export type ApplePayContact = {
  givenName: string;
  familyName: string;
  emailAddress: string;
  phoneNumber: string;
  addressLines: string[];
  locality: string;
  administrativeArea: string;
  postalCode: string;
  countryCode: string;
};

export type ApplePayLog = {
  requests: Array<{ version: number; request: Record<string, unknown> }>;
  merchantSessions: unknown[];
  completed: number[];
};

export const APPLE_PAY_CONTACT: ApplePayContact = {
  givenName: 'Ada',
  familyName: 'Lovelace',
  emailAddress: 'ada@example.com',
  phoneNumber: '+44 20 7946 0000',
  addressLines: ['12 St James Square', 'Flat 2'],
  locality: 'London',
  administrativeArea: 'London',
  postalCode: 'SW1Y 4JH',
  countryCode: 'GB',
};

/** Installs the stand-in before any script of the page runs; the wallet's card is a Visa ending 0224. */
export async function installApplePay(page: Page, contact: ApplePayContact = APPLE_PAY_CONTACT): Promise<void> {
  await page.addInitScript((billingContact: ApplePayContact) => {
    const log: ApplePayLog = { requests: [], merchantSessions: [], completed: [] };
    (window as unknown as { __applePay: ApplePayLog }).__applePay = log;
    const base64 = (bytes: number) => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(bytes))));
    class ApplePaySession {
      static readonly STATUS_SUCCESS = 0;
      static readonly STATUS_FAILURE = 1;
      static canMakePayments = () => true;
      static supportsVersion = (version: number) => version <= 14;
      onvalidatemerchant: ((event: { validationURL: string }) => void) | null = null;
      onpaymentauthorized: ((event: { payment: unknown }) => void) | null = null;
      oncancel: (() => void) | null = null;
      constructor(version: number, request: Record<string, unknown>) {
        log.requests.push({ version, request });
      }
      begin() {
        setTimeout(
          () => this.onvalidatemerchant?.({ validationURL: 'https://apple-pay-gateway.apple.com/paymentservices/startSession' }),
          0,
        );
      }
      completeMerchantValidation(merchantSession: unknown) {
        log.merchantSessions.push(merchantSession);
        const transactionId = Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, '0')).join('');
        const token = {
          paymentData: {
            version: 'EC_v1',
            data: base64(96),
            signature: base64(64),
            header: { ephemeralPublicKey: base64(91), publicKeyHash: base64(32), transactionId },
          },
          paymentMethod: { displayName: 'Visa 0224', network: 'Visa', type: 'debit' },
          transactionIdentifier: transactionId.toUpperCase(),
        };
        setTimeout(() => this.onpaymentauthorized?.({ payment: { token, billingContact, shippingContact: {} } }), 0);
      }
      completePayment(status: number) {
        log.completed.push(status);
      }
      abort() {
        log.completed.push(-1);
      }
    }
    (window as unknown as { ApplePaySession: unknown }).ApplePaySession = ApplePaySession;
  }, contact);
}

/** What the stand-in recorded. */
export function applePayLog(page: Page): Promise<ApplePayLog> {
  return page.evaluate(() => (window as unknown as { __applePay: ApplePayLog }).__applePay);
}
