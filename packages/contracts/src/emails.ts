import { z } from 'zod';

/** Emails the subscription service sends, and the dev mailbox that shows them without SMTP. */

export const EMAIL_KINDS = [
  'receipt',
  'renewal_receipt',
  'trial_reminder',
  'cancel_code',
  'cancel_confirmation',
  'activation',
  'refund_receipt',
  'sign_in_code',
  'purchases_summary',
  /** The one-click cancel link, resent by an operator (issue 13). */
  'cancel_link',
  /** Access recovery for a purchase in an account that signs in another way (issue 22). */
  'access_help',
  /** A renewal the bank refused, tried again later (dunning, issue 23). */
  'payment_failed',
  /** The last renewal try failed: the subscription ended. */
  'subscription_ended',
  /** A second payment for what the customer already owned, refunded by the payment sweep (issue 23). */
  'duplicate_payment_refund',
  /** A plan change asked for in the account, or its cancellation (issue 35, ADR 196). */
  'plan_change',
] as const;
export const emailKindSchema = z.enum(EMAIL_KINDS);
export type EmailKind = z.infer<typeof emailKindSchema>;

/** One message as the dev mailbox (`GET /dev/mailbox.json`) lists it. */
export const mailboxMessageSchema = z.object({
  id: z.string(),
  kind: emailKindSchema,
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.enum(['pending', 'sent', 'stored', 'failed']),
  createdAt: z.iso.datetime(),
});
export type MailboxMessage = z.infer<typeof mailboxMessageSchema>;
export const mailboxResponseSchema = z.object({ messages: z.array(mailboxMessageSchema) });
