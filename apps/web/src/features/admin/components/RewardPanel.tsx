import { pendingRewardRequestSchema } from '@strm/shared';
import { useState } from 'react';
import { Alert, Button, Field, Input, Textarea } from '../../../components/ui/index.ts';
import { usePendingRewardChange } from '../api.ts';
import { ADMIN_MESSAGES } from '../messages.ts';
import { AdjustmentsList, fmt } from './AdjustmentsList.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';

const M = ADMIN_MESSAGES.rewards;
type RewardInput = { wallet: string; amount: number; reason?: string };

export function RewardPanel() {
  const change = usePendingRewardChange();
  const [form, setForm] = useState({ wallet: '', amount: '', reason: '' });
  const [errors, setErrors] = useState<Partial<Record<'wallet' | 'amount' | 'reason', string>>>({});
  const [pending, setPending] = useState<RewardInput | null>(null);
  return (
    <section aria-labelledby="admin-rewards" className="flex flex-col gap-4">
      <h2 id="admin-rewards" className="text-lg font-semibold text-white">
        {ADMIN_MESSAGES.tabs.rewards}
      </h2>
      <form
        className="grid grid-cols-1 gap-3 sm:grid-cols-2"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = pendingRewardRequestSchema.safeParse({
            wallet: form.wallet,
            amount: form.amount.trim() === '' ? undefined : Number(form.amount),
            reason: form.reason.trim() || undefined,
          });
          if (!parsed.success) {
            setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
            return;
          }
          setErrors({});
          setPending(parsed.data);
        }}
      >
        <Field label={M.wallet} error={errors.wallet} required>
          <Input
            value={form.wallet}
            onChange={(e) => setForm({ ...form, wallet: e.target.value })}
            spellCheck={false}
          />
        </Field>
        <Field label={M.amount} error={errors.amount} required>
          <Input
            type="number"
            min={0}
            step="any"
            inputMode="decimal"
            value={form.amount}
            onChange={(e) => setForm({ ...form, amount: e.target.value })}
          />
        </Field>
        <Field label={M.reason} error={errors.reason} className="sm:col-span-2">
          <Textarea
            value={form.reason}
            maxLength={500}
            onChange={(e) => setForm({ ...form, reason: e.target.value })}
          />
        </Field>
        <Button type="submit" className="self-start">
          {M.submit}
        </Button>
      </form>
      {change.isSuccess ? (
        change.data.status === 'pending_approval' ? (
          <Alert tone="info">{M.waiting(fmt(change.variables.amount))}</Alert>
        ) : (
          <Alert tone="success">
            {M.done(fmt(change.data.previousPendingReward), fmt(change.data.pendingReward))}
          </Alert>
        )
      ) : null}
      {change.isError ? <Alert tone="error">{change.error.message}</Alert> : null}
      <ConfirmDialog
        question={pending ? M.confirm(pending.wallet, fmt(pending.amount)) : null}
        busy={change.isPending}
        onConfirm={() => pending && change.mutate(pending, { onSettled: () => setPending(null) })}
        onCancel={() => setPending(null)}
      />
      <AdjustmentsList />
    </section>
  );
}
