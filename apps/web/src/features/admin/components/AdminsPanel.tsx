import { walletSchema } from '@strm/shared';
import { useState } from 'react';
import { Alert, Badge, Button, Field, Input } from '../../../components/ui/index.ts';
import { useAdminChange, useAdmins } from '../api.ts';
import { ADMIN_MESSAGES } from '../messages.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { formatDate, SectionState, shortWallet } from './SectionState.tsx';

const M = ADMIN_MESSAGES.admins;

export function AdminsPanel() {
  const admins = useAdmins();
  const change = useAdminChange();
  const [wallet, setWallet] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState<{ wallet: string; promote: boolean } | null>(null);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const confirm = () => {
    if (!pending) return;
    change.mutate(pending, {
      onSuccess: () => {
        setOutcome({ tone: 'success', text: pending.promote ? M.promoted : M.demoted });
        if (pending.promote) setWallet('');
      },
      onError: (err) => setOutcome({ tone: 'error', text: err.message }),
      onSettled: () => setPending(null),
    });
  };

  return (
    <section aria-labelledby="admin-admins" className="flex flex-col gap-4">
      <h2 id="admin-admins" className="text-lg font-semibold text-white">
        {ADMIN_MESSAGES.tabs.admins}
      </h2>
      <form
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = walletSchema.safeParse(wallet);
          setError(parsed.success ? undefined : parsed.error.issues[0]?.message);
          if (parsed.success) setPending({ wallet: parsed.data, promote: true });
        }}
      >
        <Field label={M.wallet} error={error} className="flex-1">
          <Input
            value={wallet}
            onChange={(e) => setWallet(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Button type="submit">{M.promote}</Button>
      </form>
      {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}
      <SectionState query={admins}>
        <ul className="flex flex-col divide-y divide-slate-800">
          {(admins.data ?? []).map((a) => (
            <li key={a.wallet} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <div className="break-all font-mono text-sm text-white">{a.wallet}</div>
                <div className="text-xs text-slate-400">
                  {a.source === 'config' ? (
                    <Badge tone="accent">{M.configured}</Badge>
                  ) : (
                    <>
                      {a.promoted_by ? M.promotedBy(shortWallet(a.promoted_by)) : null}
                      {a.created_at ? ` · ${formatDate(a.created_at)}` : null}
                    </>
                  )}
                </div>
              </div>
              {a.source === 'promoted' ? (
                <Button
                  size="sm"
                  variant="danger"
                  aria-label={`${M.demote}: ${a.wallet}`}
                  onClick={() => setPending({ wallet: a.wallet, promote: false })}
                >
                  {M.demote}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      </SectionState>
      <ConfirmDialog
        question={pending ? (pending.promote ? M.confirmPromote : M.confirmDemote)(pending.wallet) : null}
        danger={pending ? !pending.promote : false}
        busy={change.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </section>
  );
}
