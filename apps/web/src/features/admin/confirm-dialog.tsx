import { useEffect, useId, useRef, type ReactNode } from 'react';

type ConfirmDialogProps = {
  title: string;
  /** What will happen, stated in full: amount, plan, customer. */
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onDismiss: () => void;
};

/**
 * A modal question before an operation that moves money or ends access (issue 25). Shown while
 * rendered; Escape and "Go back" dismiss it and nothing happens.
 */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onDismiss }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="admin-dialog"
      aria-labelledby={titleId}
      data-testid="confirm-dialog"
      onCancel={(event) => {
        event.preventDefault();
        onDismiss();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <div>{children}</div>
      <div className="admin-actions">
        <button type="button" className="admin-button admin-button--quiet" onClick={onDismiss}>
          Go back
        </button>
        <button type="button" className="admin-button admin-button--danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
