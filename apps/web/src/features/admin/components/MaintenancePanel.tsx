import { useState } from 'react';
import { Alert, Button, Field, Spinner, Textarea } from '../../../components/ui/index.ts';
import { useMaintenance } from '../../maintenance/index.ts';
import { useMaintenanceChange } from '../api.ts';
import { ADMIN_MESSAGES } from '../messages.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';

const M = ADMIN_MESSAGES.maintenance;

export function MaintenancePanel() {
  const { status, isPending } = useMaintenance();
  const change = useMaintenanceChange();
  const [message, setMessage] = useState('');
  const [pending, setPending] = useState<boolean | null>(null);
  const on = status?.is_maintenance ?? false;
  return (
    <section aria-labelledby="admin-maintenance" className="flex flex-col gap-4">
      <h2 id="admin-maintenance" className="text-lg font-semibold text-white">
        {ADMIN_MESSAGES.tabs.maintenance}
      </h2>
      {isPending ? (
        <Spinner label={ADMIN_MESSAGES.loading} />
      ) : (
        <Alert tone={on ? 'warning' : 'success'} title={on ? M.on : M.off}>
          {on && status?.message ? status.message : null}
        </Alert>
      )}
      {on ? (
        <Button variant="secondary" className="self-start" onClick={() => setPending(false)}>
          {M.stop}
        </Button>
      ) : (
        <form
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            setPending(true);
          }}
        >
          <Field label={M.message}>
            <Textarea value={message} maxLength={500} onChange={(e) => setMessage(e.target.value)} />
          </Field>
          <Button type="submit" variant="danger" className="self-start">
            {M.start}
          </Button>
        </form>
      )}
      {change.isError ? <Alert tone="error">{change.error.message}</Alert> : null}
      <ConfirmDialog
        question={pending === null ? null : pending ? M.confirmStart : M.confirmStop}
        danger={pending === true}
        busy={change.isPending}
        onConfirm={() =>
          change.mutate(
            { on: pending === true, message: message.trim() || undefined },
            { onSettled: () => setPending(null) },
          )
        }
        onCancel={() => setPending(null)}
      />
    </section>
  );
}
