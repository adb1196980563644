// `npm run psp:check`: proves a merchant's Adyen account before going live. With real Adyen test
// credentials (ADYEN_API_KEY, ADYEN_MERCHANT_ACCOUNT, ADYEN_ENVIRONMENT=test) it pays 1.00 EUR with
// one of Adyen's test cards through the gateway's own connector, refunds it and prints what
// happened. It reaches Adyen over the network, so it is never part of `npm test` or CI.
import pino from 'pino';
import { GatewayConfigError, loadGatewayConfig } from './config/env';
import { AdyenProcessor } from './modules/processors/adyen/adyen-processor';

/** Adyen's documented Visa test card (any name; expiry 03/2030). */
const ADYEN_TEST_CARD = { number: '4111111111111111', expiryMonth: 3, expiryYear: 2030, holderName: 'Roots PSP check' };

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<number> {
  let config;
  try {
    // The notification keys are not used here: a placeholder lets the check run without them.
    config = loadGatewayConfig({
      ...process.env,
      GATEWAY_PROCESSOR: 'adyen',
      ADYEN_HMAC_KEYS: process.env.ADYEN_HMAC_KEYS ?? '00'.repeat(32),
    });
  } catch (error) {
    if (error instanceof GatewayConfigError) {
      say(error.message);
      return 2;
    }
    throw error;
  }
  if (config.processor.name !== 'adyen') return 2;
  const log = pino({ level: process.env.LOG_LEVEL ?? 'warn' });
  const processor = new AdyenProcessor(config.processor, { log, shopperReference: () => 'roots-psp-check' });
  const executionId = `psp-check-${Date.now()}`;
  const amount = { value: 100, currency: 'EUR' };
  say(
    `Adyen ${config.processor.environment}, merchant account ${config.processor.merchantAccount}: paying ${amount.value} minor units of ${amount.currency} (reference ${executionId})`,
  );
  const payment = await processor.authorize({
    executionId,
    holderReference: 'psp-check',
    amount,
    state: null,
    card: ADYEN_TEST_CARD,
    storeInstrument: false,
    returnUrl: 'https://example.com/psp-check/return',
  });
  say(
    `payment: ${payment.kind}${payment.kind === 'refused' ? ` (${payment.code})` : ''}, pspReference ${payment.state?.pspReference ?? '-'}`,
  );
  if (payment.kind !== 'authorised' || !payment.state?.pspReference) return 1;
  const refund = await processor.refund({
    executionId,
    holderReference: 'psp-check',
    amount,
    state: payment.state,
    reference: `${executionId}:refund`,
    refund: amount,
  });
  say(`refund: received by Adyen, pspReference ${refund.reference ?? '-'} (Adyen confirms it with a REFUND notification)`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(`psp:check failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
