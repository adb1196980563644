import type { PaymentItem } from '@roots/contracts/gateway';
import { resolveMountTarget } from '../core/config/collect-validation';

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

  protected abstract render(root: HTMLElement): void;
  protected destroy(): void {}
  /** The payment item to authorize (after collecting what is needed), or undefined when not payable. */
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
