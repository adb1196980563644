import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

type DialogProps = {
  /** The dialog's heading: its accessible name, always on screen above the scrolling body. */
  title: ReactNode;
  /** `alertdialog` for a question that interrupts (issue 35: the offers' "Are you sure?"). */
  role?: 'dialog' | 'alertdialog';
  /**
   * What Escape does: the dialog's own "no" (stay, not now, go back). Without it Escape does
   * nothing, for a message that has no page behind it to go back to (an unknown plan id).
   */
  onDismiss?: () => void;
  /** The way out and the other answers: pinned below the body, never scrolled out of reach. */
  actions: ReactNode;
  /** One sentence that says what the question is about (its accessible description). */
  description?: ReactNode;
  /** The rest of the body, which scrolls on its own when the phone is too short for it. */
  children?: ReactNode;
  /** `full`: the whole screen (product-spec §4's unknown-plan message). */
  variant?: 'card' | 'full';
  className?: string;
  headingClassName?: string;
  testId?: string;
};

/**
 * The one modal dialog of the web app (ADR 185): the browser's `<dialog>` opened with `showModal()`,
 * so the page behind is inert and the dialog sits in the top layer. On every phone (320×568 up to
 * landscape 667×375) the heading and the actions stay on screen and only the body scrolls
 * (issue 35: the offers' question hid its heading and "Skip the offers", leaving two one-click
 * charges as the only visible actions). Focus goes to the heading — never to a button that charges —
 * or to the element marked `data-autofocus`, and back to where it was when the dialog goes.
 */
export function Dialog({
  title,
  role = 'dialog',
  onDismiss,
  actions,
  description,
  children,
  variant = 'card',
  className,
  headingClassName,
  testId,
}: DialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const body = useRef<HTMLDivElement>(null);
  // A body taller than the phone scrolls, and a keyboard reaches it (axe: scrollable-region-focusable).
  const [scrolls, setScrolls] = useState(false);
  // Escape reads the latest handler without reopening the dialog.
  const dismiss = useRef(onDismiss);
  useEffect(() => {
    dismiss.current = onDismiss;
  }, [onDismiss]);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = element.ownerDocument.activeElement;
    let leaving = false;
    if (!element.open) element.showModal();
    const first = element.querySelector<HTMLElement>('[data-autofocus]') ?? heading.current;
    first?.focus();
    // Chrome closes a modal dialog on a second Escape even when `cancel` was refused: a dialog
    // that cannot be dismissed opens again; one that can is dismissed as Escape asked.
    const onClose = () => {
      if (leaving) return;
      if (dismiss.current) dismiss.current();
      else element.showModal();
    };
    element.addEventListener('close', onClose);
    return () => {
      leaving = true;
      element.removeEventListener('close', onClose);
      if (element.open) element.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);

  // Measured once open (a closed dialog has no size), and again when the screen or the body changes.
  useEffect(() => {
    const element = body.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollHeight > element.clientHeight || element.scrollWidth > element.clientWidth);
    measure();
    const view = element.ownerDocument.defaultView;
    view?.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(element);
    for (const child of Array.from(element.children)) observer?.observe(child);
    return () => {
      view?.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  });

  return (
    <dialog
      ref={dialog}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      className={['dialog', `dialog--${variant}`, className].filter(Boolean).join(' ')}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        dismiss.current?.();
      }}
    >
      <h2 id={titleId} ref={heading} tabIndex={-1} className={['dialog__title', headingClassName].filter(Boolean).join(' ')}>
        {title}
      </h2>
      {(description || children) && (
        <div ref={body} className="dialog__body" tabIndex={scrolls ? 0 : undefined}>
          {description && <p id={descriptionId}>{description}</p>}
          {children}
        </div>
      )}
      <div className="dialog__actions">{actions}</div>
    </dialog>
  );
}
