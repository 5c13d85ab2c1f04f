import { useEffect, useRef, type ReactNode } from 'react';
import { FormAlert } from './FormAlert';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Shown while the action runs. */
  busyLabel: string;
  busy: boolean;
  /** The server's refusal, shown inside the dialog. */
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * A destructive action's confirmation: the browser's modal dialog (focus kept inside, Escape
 * closes it, focus goes back to the button that opened it), the safe choice focused first.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { onClose } = props;
  useEffect(() => {
    const element = dialog.current!;
    const opener = document.activeElement as HTMLElement | null;
    element.showModal();
    return () => {
      if (element.open) element.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby="confirm-title"
      onCancel={(event) => {
        event.preventDefault();
        if (!props.busy) onClose();
      }}
    >
      <h2 id="confirm-title">{props.title}</h2>
      <div className="confirm-body">{props.children}</div>
      <FormAlert message={props.error} />
      <div className="confirm-actions">
        <button type="button" className="button button-secondary" autoFocus onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button button-danger"
          disabled={props.busy}
          onClick={props.onConfirm}
        >
          {props.busy ? props.busyLabel : props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
