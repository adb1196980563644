import type { RenderedEmail } from '../emails/email-templates';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The one-click cancel link an operator resends (customer care). */
export function cancelLinkEmail(input: { productName: string; cancelUrl: string }): RenderedEmail {
  const lines = [
    `You asked us for a way to cancel your ${input.productName} subscription.`,
    `Cancel in one click: ${input.cancelUrl}`,
    'If you did not ask for this, you can ignore this email.',
  ];
  const html = `<!doctype html><html><body style="font-family:sans-serif">${lines
    .map(
      (line) =>
        `<p>${escapeHtml(line).replace(escapeHtml(input.cancelUrl), `<a href="${escapeHtml(input.cancelUrl)}">${escapeHtml(input.cancelUrl)}</a>`)}</p>`,
    )
    .join('')}</body></html>`;
  return { kind: 'cancel_link', subject: `Cancel your ${input.productName} subscription`, text: lines.join('\n'), html };
}
