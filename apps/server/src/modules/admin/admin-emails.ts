import { render, type RenderedEmail } from '../emails/email-templates';

/** The one-click cancel link an operator resends (customer care). */
export function cancelLinkEmail(input: { productName: string; cancelUrl: string }): RenderedEmail {
  return render(
    'cancel_link',
    `Cancel your ${input.productName} subscription`,
    [
      `You asked us for a way to cancel your ${input.productName} subscription.`,
      `Cancel in one click: ${input.cancelUrl}`,
      'If you did not ask for this, you can ignore this email.',
    ],
    [input.cancelUrl],
  );
}
