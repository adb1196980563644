import { z } from 'zod';

/**
 * Adyen's standard notification webhook as the gateway receives it (`POST /psp/adyen/notifications`;
 * Adyen's `NotificationRequest` of Webhooks v1). Only the fields the gateway reads and the HMAC
 * signs are named; the rest of each item is kept as sent (the signature covers named fields only).
 */
export const adyenNotificationItemSchema = z.looseObject({
  additionalData: z.record(z.string(), z.unknown()).optional(),
  amount: z.object({ currency: z.string().length(3), value: z.number().int() }),
  eventCode: z.string().min(1).max(64),
  eventDate: z.string().max(64),
  merchantAccountCode: z.string().max(200),
  merchantReference: z.string().max(200),
  originalReference: z.string().max(64).optional(),
  paymentMethod: z.string().max(64).optional(),
  pspReference: z.string().min(1).max(64),
  reason: z.string().max(2_000).optional(),
  success: z.enum(['true', 'false']),
});
export type AdyenNotificationItem = z.infer<typeof adyenNotificationItemSchema>;

export const adyenNotificationRequestSchema = z.object({
  live: z.enum(['true', 'false']),
  notificationItems: z
    .array(z.object({ NotificationRequestItem: adyenNotificationItemSchema }))
    .min(1)
    .max(100),
});
export type AdyenNotificationRequest = z.infer<typeof adyenNotificationRequestSchema>;

/** What the gateway answers an accepted notification batch: Adyen's required acknowledgement. */
export const ADYEN_NOTIFICATION_ACCEPTED = '[accepted]';
