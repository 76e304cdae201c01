import { type ReactNode, useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/index.ts';
import { ADMIN_MESSAGES } from '../messages.ts';

/**
 * A modal confirmation (native <dialog>: focus is kept inside, Escape cancels, focus returns to the
 * control that opened it). Open while `question` is set.
 */
export function ConfirmDialog({
  question,
  danger,
  busy,
  onConfirm,
  onCancel,
  children,
}: {
  question: string | null;
  danger?: boolean;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
  children?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (question && !dialog.open) dialog.showModal?.();
    if (!question && dialog.open) dialog.close();
  }, [question]);
  return (
    <dialog
      ref={ref}
      aria-labelledby="admin-confirm-question"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl border border-slate-700 bg-slate-900 p-5 text-slate-100 backdrop:bg-black/60"
    >
      {question ? (
        <>
          <p id="admin-confirm-question" className="text-base font-semibold text-white">
            {question}
          </p>
          {children}
          <div className="mt-4 flex justify-end gap-2">
            <Button variant="secondary" onClick={onCancel} disabled={busy}>
              {ADMIN_MESSAGES.cancel}
            </Button>
            <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm} disabled={busy} autoFocus>
              {ADMIN_MESSAGES.confirm}
            </Button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}
