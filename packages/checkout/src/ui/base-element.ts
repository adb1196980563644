import type { Execution, PaymentItem } from '@roots/contracts/gateway';
import { resolveMountTarget } from '../core/config/collect-validation';
import { CHECKOUT_MESSAGES } from '../core/errors/checkout-error';
import { outcomeOfError } from '../payment/failure-report';
import { authorizeItem, continuePayment, type PaymentFlowContext, type PaymentOutcome } from '../payment/payment-flow';

/**
 * The base of every payment-method element (STYLE.md: one base class, one folder shape per
 * method). An element renders into a root it owns, can be hidden and shown again without a
 * remount (wallets), and — when payable — builds its payment item.
 */
export abstract class UIElement {
  root: HTMLElement | undefined;
  /** Whether the element has what it needs to pay (drives the pay button). */
  isValid = false;
  private validityListeners = new Set<(valid: boolean) => void>();

  constructor(protected readonly doc: Document) {}

  /** Mounts into a selector or an element (INVALID_ELEMENT_SELECTOR / EMPTY_ELEMENT_IN_MOUNT otherwise). */
  mount(target: string | HTMLElement): this {
    const host = resolveMountTarget(target, this.doc);
    this.root = this.doc.createElement('div');
    host.append(this.root);
    this.render(this.root);
    return this;
  }

  unmount(): void {
    this.destroy();
    this.root?.remove();
    this.root = undefined;
  }

  get mounted(): boolean {
    return this.root !== undefined;
  }

  setVisible(visible: boolean): void {
    if (this.root) this.root.hidden = !visible;
  }

  onValidityChange(listener: (valid: boolean) => void): () => void {
    this.validityListeners.add(listener);
    return () => this.validityListeners.delete(listener);
  }

  protected setValid(valid: boolean): void {
    if (valid === this.isValid) return;
    this.isValid = valid;
    this.validityListeners.forEach((listener) => listener(valid));
  }

  /** The shared pay button's text for this method; undefined keeps the drop-in's default ('Pay {amount}'). */
  get payLabel(): string | undefined {
    return undefined;
  }

  /** Whether the element may pay now; a method with fields asks them (the card form asks its frames). */
  async validate(): Promise<boolean> {
    return this.isValid;
  }

  /**
   * The flow every method shares (checkout-spec §4): submit (validate, build the payment item),
   * handle the response (authorize), handle the action (poll, 3-D Secure, redirect, pix) to a
   * final outcome. `onSubmitted` runs once the element is valid, before any network call.
   * @example const outcome = await element.submit(flowContext, () => showLoading());
   */
  async submit(flow: PaymentFlowContext, onSubmitted: () => void = () => {}): Promise<PaymentOutcome> {
    let valid: boolean;
    try {
      valid = (await this.validate()) && this.isValid;
    } catch (error) {
      return outcomeOfError(error);
    }
    if (!valid) return { kind: 'failure', code: 'VALIDATION_FAILED', message: CHECKOUT_MESSAGES.paymentBlocked };
    onSubmitted();
    let item: PaymentItem;
    let execution: Execution;
    try {
      item = await this.paymentItem();
      execution = await authorizeItem(flow, item);
    } catch (error) {
      return outcomeOfError(error);
    }
    return this.handleAction(flow, execution, item);
  }

  /** From the authorize answer through the execution's actions to a final outcome; wallets reuse it after confirm. */
  handleAction(flow: PaymentFlowContext, execution: Execution, item: PaymentItem): Promise<PaymentOutcome> {
    return continuePayment(flow, execution, item);
  }

  protected abstract render(root: HTMLElement): void;
  protected destroy(): void {}
  /** The payment item to authorize (after collecting what is needed). */
  abstract paymentItem(): Promise<PaymentItem>;
}

/** Small DOM helper: element with attributes and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const element = doc.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(key, value === true ? '' : value);
  }
  element.append(...children);
  return element;
}
