// The admin console: registrations, admins, maintenance, pending rewards and the audit log. The server
// decides who may use it: a wallet the admin endpoints refuse (403) sees the refusal and nothing else.
import { useState } from 'react';
import { Alert, Card, PageSpinner } from '../../components/ui/index.ts';
import { cn } from '../../components/ui/cn.ts';
import { ApiRequestError } from '../../lib/api.ts';
import { useAdmins } from './api.ts';
import { AdminsPanel } from './components/AdminsPanel.tsx';
import { AuditPanel } from './components/AuditPanel.tsx';
import { MaintenancePanel } from './components/MaintenancePanel.tsx';
import { RegistrationsPanel } from './components/RegistrationsPanel.tsx';
import { RewardPanel } from './components/RewardPanel.tsx';
import { SectionState } from './components/SectionState.tsx';
import { ADMIN_MESSAGES } from './messages.ts';

const TABS = {
  registrations: RegistrationsPanel,
  admins: AdminsPanel,
  maintenance: MaintenancePanel,
  rewards: RewardPanel,
  audit: AuditPanel,
} as const;
type Tab = keyof typeof TABS;

export function AdminConsole() {
  // The admin list doubles as the access check: the first admin endpoint the console calls.
  const access = useAdmins();
  const [tab, setTab] = useState<Tab>('registrations');
  if (access.isPending) return <PageSpinner label={ADMIN_MESSAGES.loading} />;
  if (access.error instanceof ApiRequestError && access.error.status === 403) {
    return (
      <Alert tone="error" title={ADMIN_MESSAGES.refused} className="mx-auto mt-8 max-w-xl">
        {ADMIN_MESSAGES.refusedHint}
      </Alert>
    );
  }
  if (access.isError) return <SectionState query={access}>{null}</SectionState>;
  const Panel = TABS[tab];
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold text-white">{ADMIN_MESSAGES.title}</h1>
      <nav aria-label={ADMIN_MESSAGES.title}>
        <ul className="flex flex-wrap gap-1">
          {(Object.keys(TABS) as Tab[]).map((key) => (
            <li key={key}>
              <button
                type="button"
                aria-current={tab === key ? 'page' : undefined}
                onClick={() => setTab(key)}
                className={cn(
                  'rounded-lg px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400',
                  tab === key ? 'bg-violet-600 text-white' : 'text-slate-200 hover:bg-slate-800',
                )}
              >
                {ADMIN_MESSAGES.tabs[key]}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <Card>
        <Panel />
      </Card>
    </div>
  );
}
