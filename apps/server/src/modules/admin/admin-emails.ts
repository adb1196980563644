import type { RenderedEmail } from '../emails/email-templates';
import { renderEmail } from '../emails/templates/email-layout';

/** The one-click cancel link an operator resends (customer care). */
export function cancelLinkEmail(input: { productName: string; cancelUrl: string }): RenderedEmail {
  return renderEmail({
    kind: 'cancel_link',
    subject: `Cancel your ${input.productName} subscription`,
    productName: input.productName,
    blocks: [
      `You asked us for a way to cancel your ${input.productName} subscription.`,
      { text: 'Cancel in one click:', url: input.cancelUrl, button: 'Cancel subscription' },
      'If you did not ask for this, you can ignore this email.',
    ],
    secrets: [input.cancelUrl],
  });
}
