import type { ReactNode } from 'react';
import { Dialog } from '../../components/ui/dialog';

type ConfirmDialogProps = {
  title: string;
  /** What will happen, stated in full: amount, plan, customer. */
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onDismiss: () => void;
};

/**
 * A modal question before an operation that moves money or ends access (issue 25), on the app's
 * one dialog (ADR 185). Escape and "Go back" dismiss it and nothing happens.
 */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onDismiss }: ConfirmDialogProps) {
  return (
    <Dialog
      className="admin-dialog"
      testId="confirm-dialog"
      title={title}
      onDismiss={onDismiss}
      actions={
        <div className="admin-actions">
          <button type="button" className="admin-button admin-button--quiet" onClick={onDismiss}>
            Go back
          </button>
          <button type="button" className="admin-button admin-button--danger" onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      }
    >
      <div>{children}</div>
    </Dialog>
  );
}
