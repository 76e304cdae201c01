// The pending-reward adjustments (docs/security.md#pending-reward-adjustments): the raises waiting for a
// second admin first, each with Approve and Reject; then what was applied or rejected, by whom. The server
// refuses an admin's decision on their own request, and says why.
import type { Adjustment } from '@strm/shared';
import { useState } from 'react';
import { Alert, Badge, Button, Table } from '../../../components/ui/index.ts';
import { useAdjustmentDecision, useAdjustments } from '../api.ts';
import { ADMIN_MESSAGES } from '../messages.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { formatDate, SectionState } from './SectionState.tsx';

const M = ADMIN_MESSAGES.adjustments;
const STATUS_TONE = {
  applied: 'success',
  pending_approval: 'warning',
  rejected: 'neutral',
  expired: 'neutral',
} as const;

export const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 6 });

export function AdjustmentsList() {
  const adjustments = useAdjustments();
  const decision = useAdjustmentDecision();
  const [asked, setAsked] = useState<{ adjustment: Adjustment; approve: boolean } | null>(null);
  const raiseOf = (a: Adjustment) => fmt(a.requestedPendingReward - a.previousPendingReward);
  return (
    <section
      aria-labelledby="admin-adjustments"
      className="flex flex-col gap-3 border-t border-slate-800 pt-4"
    >
      <h3 id="admin-adjustments" className="text-base font-semibold text-white">
        {M.title}
      </h3>
      {decision.isError ? <Alert tone="error">{decision.error.message}</Alert> : null}
      <SectionState query={adjustments}>
        {adjustments.data?.adjustments.length === 0 ? (
          <p className="text-sm text-slate-400">{M.empty}</p>
        ) : (
          <Table
            columns={Object.values(M.columns)}
            className="min-w-[44rem]"
            trailing={
              <th scope="col" className="p-2">
                <span className="sr-only">{M.approve}</span>
              </th>
            }
          >
            {(adjustments.data?.adjustments ?? []).map((a) => (
              <tr key={a.id} className="border-t border-slate-800" data-testid="adjustment">
                <td className="p-2 whitespace-nowrap">{formatDate(a.createdAt)}</td>
                <td className="p-2 break-all font-mono text-xs">{a.wallet}</td>
                <td className="p-2 whitespace-nowrap">
                  {fmt(a.previousPendingReward)} → {fmt(a.requestedPendingReward)}
                </td>
                <td className="p-2 break-all font-mono text-xs">{a.admin}</td>
                <td className="p-2">{a.reason ?? '—'}</td>
                <td className="p-2">
                  <Badge tone={STATUS_TONE[a.status]}>{M.status[a.status]}</Badge>
                </td>
                <td className="p-2">
                  {a.status === 'pending_approval' ? (
                    <div className="flex gap-2">
                      <Button size="sm" onClick={() => setAsked({ adjustment: a, approve: true })}>
                        {M.approve}
                      </Button>
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() => setAsked({ adjustment: a, approve: false })}
                      >
                        {M.reject}
                      </Button>
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </SectionState>
      <ConfirmDialog
        question={
          asked
            ? asked.approve
              ? M.confirmApprove(asked.adjustment.wallet, raiseOf(asked.adjustment))
              : M.confirmReject(asked.adjustment.wallet)
            : null
        }
        busy={decision.isPending}
        onConfirm={() =>
          asked &&
          decision.mutate(
            { id: asked.adjustment.id, approve: asked.approve },
            { onSettled: () => setAsked(null) },
          )
        }
        onCancel={() => setAsked(null)}
      />
    </section>
  );
}
