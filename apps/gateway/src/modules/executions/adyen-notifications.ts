import { ADYEN_NOTIFICATION_ACCEPTED, adyenNotificationRequestSchema, type AdyenNotificationItem } from '@roots/contracts/gateway-adyen';
import type { DisputeReason } from '@roots/contracts/gateway';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ExecutionsService } from './executions.service';
import type { ExecutionsRepository } from './executions.repository';
import type { ProcessorEvent } from '../processors/processor';
import { declineCodeFor } from '../processors/adyen/adyen-codes';
import { HmacValidator, type NotificationRequestItem } from '../processors/adyen/adyen-library';
import { ADYEN } from '../processors/adyen/adyen-processor';

/** Where Adyen posts its standard notifications (Customer Area → Developers → Webhooks). */
export const ADYEN_NOTIFICATIONS_PATH = '/psp/adyen/notifications';

export type AdyenNotificationsOptions = {
  executions: ExecutionsService;
  repository: ExecutionsRepository;
  /** The webhook's HMAC keys (hex); two while a key is rotated: an item signed with either is valid. */
  hmacKeys: string[];
  merchantAccount: string;
  live: boolean;
  log: FastifyBaseLogger;
};

/** Adyen's chargeback reason codes that say the cardholder did not make the payment (Visa 10.x, Mastercard 4837/4840/4849/4863/4870/4871, Amex F24/F29/FR2/FR4/FR6). */
const FRAUD_REASON_CODES = new Set(['4837', '4840', '4849', '4863', '4870', '4871', 'F24', 'F29', 'FR2', 'FR4', 'FR6', '83', '57']);

function disputeReasonOf(item: AdyenNotificationItem): DisputeReason {
  const code = typeof item.additionalData?.chargebackReasonCode === 'string' ? item.additionalData.chargebackReasonCode.trim() : '';
  return code.startsWith('10.') || FRAUD_REASON_CODES.has(code) ? 'fraudulent' : 'general';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Our event for one of Adyen's, or undefined for the ones the gateway has no use for (CAPTURE, REPORT_AVAILABLE, …). */
export function processorEventOf(item: AdyenNotificationItem): ProcessorEvent | undefined {
  const success = item.success === 'true';
  const paymentReference = item.originalReference ?? item.pspReference;
  const executionId = item.merchantReference;
  const about = { paymentReference, executionId };
  switch (item.eventCode) {
    case 'AUTHORISATION': {
      const storedPaymentMethodId = text(item.additionalData?.['tokenization.storedPaymentMethodId']);
      const storedShopper = text(item.additionalData?.['tokenization.shopperReference']);
      return {
        type: 'authorisation',
        paymentReference: item.pspReference,
        executionId,
        success,
        ...(success ? {} : { declineCode: declineCodeFor({ reason: item.reason }) }),
        ...(success && storedPaymentMethodId && storedShopper
          ? { storedToken: { processor: ADYEN, storedPaymentMethodId, shopperReference: storedShopper } }
          : {}),
      };
    }
    case 'CANCELLATION':
      return { ...about, type: 'cancellation', success };
    case 'REFUND':
      return success ? undefined : { ...about, type: 'refundFailed', refundReference: item.pspReference };
    case 'REFUND_FAILED':
      return { ...about, type: 'refundFailed', refundReference: item.pspReference };
    case 'NOTIFICATION_OF_CHARGEBACK':
    case 'CHARGEBACK':
      return { ...about, type: 'dispute', stage: 'opened', reason: disputeReasonOf(item) };
    case 'CHARGEBACK_REVERSED':
      return { ...about, type: 'dispute', stage: 'won', reason: disputeReasonOf(item) };
    case 'SECOND_CHARGEBACK':
      return { ...about, type: 'dispute', stage: 'lost', reason: disputeReasonOf(item) };
    default:
      return undefined;
  }
}

/**
 * Adyen's standard notifications. Every item's HMAC signature is checked with Adyen's own
 * validator (`additionalData.hmacSignature`, any configured key): one bad item refuses the whole
 * batch (401) and nothing changes. A valid batch is answered `[accepted]`; each item is applied
 * once (its eventCode, pspReference and success are its identity: a redelivery changes nothing).
 */
export async function adyenNotificationRoutes(app: FastifyInstance, options: AdyenNotificationsOptions): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const validator = new HmacValidator();

  const signedByUs = (item: AdyenNotificationItem): boolean => {
    const signature = item.additionalData?.hmacSignature;
    if (typeof signature !== 'string' || signature.length === 0) return false;
    return options.hmacKeys.some((key) => {
      try {
        return validator.validateHMAC(item as unknown as NotificationRequestItem, key);
      } catch {
        return false;
      }
    });
  };

  routes.post(ADYEN_NOTIFICATIONS_PATH, { schema: { body: adyenNotificationRequestSchema } }, async (request, reply) => {
    const items = request.body.notificationItems.map((wrapper) => wrapper.NotificationRequestItem);
    const unsigned = items.filter((item) => !signedByUs(item));
    if (unsigned.length > 0) {
      options.log.warn(
        { events: unsigned.map((item) => ({ eventCode: item.eventCode, pspReference: item.pspReference })) },
        'Adyen notification refused: HMAC signature not valid',
      );
      return reply.status(401).send({ error: 'HMAC signature not valid', code: 'UNAUTHORIZED', requestId: String(request.id) });
    }
    for (const item of items) {
      const identity = { eventCode: item.eventCode, pspReference: item.pspReference, success: item.success };
      if ((request.body.live === 'true') !== options.live || item.merchantAccountCode !== options.merchantAccount) {
        options.log.warn(
          { ...identity, merchantAccountCode: item.merchantAccountCode },
          'Adyen notification for another account or platform; ignored',
        );
        continue;
      }
      const event = processorEventOf(item);
      if (!event) continue;
      const id = `adyen:${item.eventCode}:${item.pspReference}:${item.success}`;
      if (!(await options.repository.recordProcessorEvent(id, ADYEN))) continue;
      try {
        const found = await options.executions.applyProcessorEvent(event);
        if (!found) options.log.warn(identity, 'Adyen notification about no execution of ours');
      } catch (error) {
        // Not applied: forgotten, so Adyen's redelivery (it retries anything but [accepted]) applies it.
        await options.repository.forgetProcessorEvent(id);
        throw error;
      }
    }
    return reply.type('text/plain').send(ADYEN_NOTIFICATION_ACCEPTED);
  });
}
