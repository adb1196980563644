import { randomUUID } from 'node:crypto';
import type { Execution } from '@roots/contracts/gateway';
import { ADYEN_NOTIFICATION_ACCEPTED, type AdyenNotificationItem, type AdyenNotificationRequest } from '@roots/contracts/gateway-adyen';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, merchantHeaders, payByCard, startGateway, type TestGateway } from '../../test/helpers';
import { HmacValidator, type NotificationRequestItem } from '../processors/adyen/adyen-library';
import { ADYEN_NOTIFICATIONS_PATH } from './adyen-notifications';
import { adyenEnv, HMAC_KEYS, MERCHANT_ACCOUNT } from '../processors/adyen/testing/adyen-env';
import { startPrism, webhookExample, type PrismMock } from '../processors/adyen/testing/prism';
import { eventually, startWebhookReceiver } from '../processors/adyen/testing/receiver';

/**
 * Adyen's notifications, from each event's example in Adyen's Webhooks v1 definition, pointed at
 * our payments and signed the way Adyen signs them (the library's HMAC): valid (either key of a
 * rotation), wrong key, tampered amount, redelivered; and what each becomes for the product.
 */
const CARD = { number: '4111111111111111', month: '03', year: '2030', name: 'John Smith' };

let prism: PrismMock;
let gateway: TestGateway;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  prism = await startPrism();
  receiver = await startWebhookReceiver();
  gateway = await startGateway(adyenEnv(prism.url, { GATEWAY_WEBHOOK_URLS: receiver.url, GATEWAY_WEBHOOK_RETRY_BASE_MS: '20' }), {
    captureLogs: true,
  });
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await receiver?.close();
  await prism?.stop();
});

/** Adyen's example of `eventCode`, about our payment, signed with `key`. */
function notification(
  eventCode: string,
  about: {
    pspReference: string;
    originalReference?: string;
    merchantReference: string;
    amount: { value: number; currency: string };
    success?: boolean;
    reason?: string;
  },
  key = HMAC_KEYS[0]!,
): AdyenNotificationRequest {
  const request = webhookExample<AdyenNotificationRequest>(eventCode);
  const item = request.notificationItems[0]!.NotificationRequestItem;
  const signed: AdyenNotificationItem = {
    ...item,
    merchantAccountCode: MERCHANT_ACCOUNT,
    pspReference: about.pspReference,
    merchantReference: about.merchantReference,
    amount: about.amount,
    success: about.success === false ? 'false' : 'true',
    ...(about.reason ? { reason: about.reason } : {}),
  };
  if (about.originalReference) signed.originalReference = about.originalReference;
  else delete signed.originalReference;
  const additionalData = { ...(signed.additionalData ?? {}) };
  delete additionalData.hmacSignature;
  signed.additionalData = {
    ...additionalData,
    hmacSignature: new HmacValidator().calculateHmac(signed as unknown as NotificationRequestItem, key),
  };
  return { live: 'false', notificationItems: [{ NotificationRequestItem: signed }] };
}

async function post(body: AdyenNotificationRequest) {
  return call<string>(`${gateway.url}${ADYEN_NOTIFICATIONS_PATH}`, { json: body, idempotencyKey: false });
}

async function execution(id: string): Promise<Execution> {
  return (await call<Execution>(`${gateway.url}/merchant/v1/executions/${id}`, { headers: merchantHeaders() })).body;
}

/** A paid execution: card-direct's pspReference would be shared by every payment, so each test pays once with it. */
async function paid() {
  const { execution: answer } = await payByCard(gateway, CARD, { holderReference: `holder-${randomUUID()}` });
  expect(answer.body.status).toBe('authorizeSuccessful');
  return answer.body;
}

describe('Adyen notifications', () => {
  it('a CHARGEBACK signed with the current key opens the dispute once; its redelivery changes nothing', async () => {
    const payment = await paid();
    const body = notification('CHARGEBACK', {
      pspReference: 'QFQTPCQ8HXSKGK82',
      originalReference: '993617895204576J',
      merchantReference: payment.id,
      amount: payment.amount,
    });
    const answer = await post(body);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(ADYEN_NOTIFICATION_ACCEPTED);
    const disputed = await execution(payment.id);
    // The example's chargebackReasonCode 4853 (Mastercard "cardholder dispute") is not fraud.
    expect(disputed.dispute).toMatchObject({ status: 'needs_response', reason: 'general', amount: payment.amount });
    await eventually(() => receiver.payloads.some((p) => p.type === 'execution.disputeOpened' && p.data.execution.id === payment.id));
    const redelivered = await post(body);
    expect(redelivered.text).toBe(ADYEN_NOTIFICATION_ACCEPTED);
    expect((await execution(payment.id)).dispute?.id).toBe(disputed.dispute?.id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.payloads.filter((p) => p.type === 'execution.disputeOpened' && p.data.execution.id === payment.id)).toHaveLength(1);

    // CHARGEBACK_REVERSED: the merchant won it.
    expect(
      (
        await post(
          notification(
            'CHARGEBACK_REVERSED',
            {
              pspReference: 'QFQTPCQ8HXSKGK83',
              originalReference: '993617895204576J',
              merchantReference: payment.id,
              amount: payment.amount,
            },
            HMAC_KEYS[1],
          ),
        )
      ).status,
    ).toBe(200);
    expect((await execution(payment.id)).dispute?.status).toBe('won');
    // Through the dispute state machine: the product hears of the decision (ADR 181).
    await eventually(() =>
      receiver.payloads.some(
        (p) => p.type === 'execution.disputeUpdated' && p.data.execution.id === payment.id && p.data.dispute?.status === 'won',
      ),
    );

    // SECOND_CHARGEBACK after a win: lost, announced the same way.
    expect(
      (
        await post(
          notification('SECOND_CHARGEBACK', {
            pspReference: 'QFQTPCQ8HXSKGK84',
            originalReference: '993617895204576J',
            merchantReference: payment.id,
            amount: payment.amount,
          }),
        )
      ).status,
    ).toBe(200);
    expect((await execution(payment.id)).dispute?.status).toBe('lost');
    await eventually(() =>
      receiver.payloads.some(
        (p) => p.type === 'execution.disputeUpdated' && p.data.execution.id === payment.id && p.data.dispute?.status === 'lost',
      ),
    );
  });

  it('refuses a wrong key and a tampered amount (401), and nothing changes', async () => {
    const payment = await paid();
    const about = {
      pspReference: 'QFQTPCQ8HXSKGK90',
      originalReference: '993617895204576J',
      merchantReference: payment.id,
      amount: payment.amount,
    };
    const wrongKey = notification('CHARGEBACK', about, 'AA'.repeat(32));
    expect((await post(wrongKey)).status).toBe(401);
    const tampered = notification('CHARGEBACK', about);
    tampered.notificationItems[0]!.NotificationRequestItem.amount.value = 1;
    expect((await post(tampered)).status).toBe(401);
    // One bad item refuses the whole batch: the good one beside it is not applied either.
    const mixed = notification('CHARGEBACK', about);
    mixed.notificationItems.push(wrongKey.notificationItems[0]!);
    expect((await post(mixed)).status).toBe(401);
    expect((await execution(payment.id)).dispute).toBeUndefined();
    expect(gateway.logs.some((line) => line.includes('HMAC signature not valid'))).toBe(true);
  });

  it('an AUTHORISATION settles a payment whose answer was lost; a REFUND_FAILED makes the amount refundable again', async () => {
    prism.plan('/payments', { drop: true }, { drop: true }, { drop: true });
    const { execution: open } = await payByCard(gateway, CARD);
    expect(open.body.status).toBe('authorizeRequested');
    const authorised = notification(
      'AUTHORISATION',
      { pspReference: 'QFQTPCQ8HXSKGK99', merchantReference: open.body.id, amount: open.body.amount },
      HMAC_KEYS[1],
    );
    expect((await post(authorised)).text).toBe(ADYEN_NOTIFICATION_ACCEPTED);
    const settled = await execution(open.body.id);
    expect(settled.status).toBe('authorizeSuccessful');
    await eventually(() =>
      receiver.payloads.some((p) => p.type === 'execution.authorizeSuccessful' && p.data.execution.id === open.body.id),
    );

    // Refund it at Adyen (the refund example's pspReference), then Adyen reports the refund failed.
    const refunded = await call<{ execution: Execution }>(`${gateway.url}/merchant/v1/executions/${open.body.id}/refunds`, {
      headers: merchantHeaders(),
      json: { amount: { value: 500, currency: 'USD' } },
    });
    expect(refunded.body.execution.amountRefunded).toBe(500);
    const failed = notification('REFUND_FAILED', {
      pspReference: '993617894906488A',
      originalReference: 'QFQTPCQ8HXSKGK99',
      merchantReference: open.body.id,
      amount: { value: 500, currency: 'USD' },
    });
    expect((await post(failed)).text).toBe(ADYEN_NOTIFICATION_ACCEPTED);
    const after = await execution(open.body.id);
    expect(after.amountRefunded).toBe(0);
    expect(after.refunds).toEqual([]);
  }, 60_000);

  it('a refused AUTHORISATION fails the open payment with the mapped decline code', async () => {
    prism.plan('/payments', { drop: true }, { drop: true }, { drop: true });
    const { execution: open } = await payByCard(gateway, CARD);
    const refused = notification('AUTHORISATION', {
      pspReference: 'QFQTPCQ8HXSKGK98',
      merchantReference: open.body.id,
      amount: open.body.amount,
      success: false,
      reason: 'Not enough balance',
    });
    expect((await post(refused)).text).toBe(ADYEN_NOTIFICATION_ACCEPTED);
    const failed = await execution(open.body.id);
    expect(failed.status).toBe('authorizeFailed');
    expect(failed.finalState?.errors[0]?.reason.code).toBe('insufficient_funds');
  }, 60_000);

  it('another merchant account’s notification is accepted and ignored', async () => {
    const payment = await paid();
    const body = notification('CHARGEBACK', {
      pspReference: 'QFQTPCQ8HXSKGK70',
      originalReference: '993617895204576J',
      merchantReference: payment.id,
      amount: payment.amount,
    });
    const item = body.notificationItems[0]!.NotificationRequestItem;
    item.merchantAccountCode = 'SomeoneElse';
    item.additionalData = {
      ...item.additionalData,
      hmacSignature: new HmacValidator().calculateHmac(item as unknown as NotificationRequestItem, HMAC_KEYS[0]!),
    };
    expect((await post(body)).text).toBe(ADYEN_NOTIFICATION_ACCEPTED);
    expect((await execution(payment.id)).dispute).toBeUndefined();
  });
});
