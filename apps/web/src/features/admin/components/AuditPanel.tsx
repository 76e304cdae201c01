import { Table } from '../../../components/ui/index.ts';
import { useAuditLog } from '../api.ts';
import { ADMIN_MESSAGES } from '../messages.ts';
import { formatDate, SectionState } from './SectionState.tsx';

const M = ADMIN_MESSAGES.audit;

/** Who did what and when, newest first (the API's order). */
export function AuditPanel() {
  const audit = useAuditLog();
  return (
    <section aria-labelledby="admin-audit" className="flex flex-col gap-4">
      <h2 id="admin-audit" className="text-lg font-semibold text-white">
        {ADMIN_MESSAGES.tabs.audit}
      </h2>
      <SectionState query={audit}>
        {audit.data?.length === 0 ? (
          <p className="text-sm text-slate-400">{M.empty}</p>
        ) : (
          <Table columns={Object.values(M.columns)} className="min-w-[36rem]">
            {(audit.data ?? []).map((a) => (
              <tr key={a.id} className="border-t border-slate-800">
                <td className="p-2 whitespace-nowrap">{formatDate(a.created_at)}</td>
                <td className="p-2 break-all font-mono text-xs">{a.actor}</td>
                <td className="p-2">{M.actions[a.action]}</td>
                <td className="p-2 break-all font-mono text-xs">{a.target ?? '—'}</td>
                <td className="p-2">{a.detail ?? '—'}</td>
              </tr>
            ))}
          </Table>
        )}
      </SectionState>
    </section>
  );
}
