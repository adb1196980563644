import { CHECKOUT_MESSAGES } from '../core/errors/checkout-error';
import { h } from './base-element';

/**
 * Authorization messages (checkout-spec §2): failure 'Authorization failed, please try again.'
 * (auto-hidden after `ttlMs` when given; a click dismisses it) and success 'Payment successful'.
 */
export function showMessage(host: HTMLElement, kind: 'error' | 'success', options: { text?: string; ttlMs?: number } = {}): HTMLElement {
  const doc = host.ownerDocument;
  const text = options.text ?? (kind === 'error' ? CHECKOUT_MESSAGES.authorizationFailedToast : CHECKOUT_MESSAGES.paymentSuccessful);
  host.querySelectorAll(':scope > .roots-message').forEach((old) => old.remove());
  const message = h(
    doc,
    'div',
    { class: `roots-message roots-message--${kind}`, role: kind === 'error' ? 'alert' : 'status', 'data-testid': `roots-message-${kind}` },
    text,
  );
  message.addEventListener('click', () => message.remove());
  if (options.ttlMs) doc.defaultView?.setTimeout(() => message.remove(), options.ttlMs);
  host.prepend(message);
  return message;
}

/** A button that shows 'Loading' while its click handler runs. */
export function loadingButton(doc: Document, label: string, onClick: () => Promise<void>): HTMLButtonElement {
  const button = h(doc, 'button', { type: 'button', class: 'roots-button' }, label);
  let busy = false;
  button.addEventListener('click', async () => {
    if (busy) return;
    busy = true;
    const text = button.textContent ?? label;
    button.textContent = 'Loading';
    button.setAttribute('aria-busy', 'true');
    try {
      await onClick();
    } finally {
      busy = false;
      button.removeAttribute('aria-busy');
      if (button.textContent === 'Loading') button.textContent = text;
    }
  });
  return button;
}
