import { type AdminRegistration, REGISTRATION_PLATFORMS } from '@strm/shared';
import { Fragment, useState } from 'react';
import { Alert, Badge, Button, Field, Input, Select } from '../../../components/ui/index.ts';
import { type RegistrationFilters, useAccessChange, useRegistrations } from '../api.ts';
import { ADMIN_MESSAGES } from '../messages.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { channelUrl, REGISTRATION_PLATFORM_LABELS } from '../platform-labels.ts';
import { formatDate, SectionState, shortWallet } from './SectionState.tsx';

const M = ADMIN_MESSAGES.registrations;
const INITIAL: RegistrationFilters = {
  search: '',
  platform: '',
  access: '',
  from: '',
  to: '',
  sort: 'created_at',
  order: 'desc',
  page: 1,
  pageSize: 20,
};
type SortKey = keyof typeof M.sorts;

export function RegistrationsPanel() {
  const [filters, setFilters] = useState<RegistrationFilters>(INITIAL);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [open, setOpen] = useState<string | null>(null);
  const [pending, setPending] = useState<{ wallets: string[]; grant: boolean } | null>(null);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const query = useRegistrations(filters);
  const change = useAccessChange();

  const set = (patch: Partial<RegistrationFilters>) => {
    setFilters((f) => ({ ...f, page: 1, ...patch }));
    setSelected(new Set());
  };
  const items = query.data?.items ?? [];
  const pages = Math.max(1, Math.ceil((query.data?.total ?? 0) / filters.pageSize));
  const allSelected = items.length > 0 && items.every((r) => selected.has(r.wallet));
  const toggle = (wallet: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(wallet)) next.delete(wallet);
      else next.add(wallet);
      return next;
    });

  const confirm = () => {
    if (!pending) return;
    change.mutate(pending, {
      onSuccess: ({ done, failed }) => {
        setOutcome(
          failed
            ? { tone: 'error', text: M.partly(failed) }
            : { tone: 'success', text: M.done(pending.grant ? 'granted' : 'revoked', done) },
        );
        setSelected(new Set());
      },
      onSettled: () => setPending(null),
    });
  };

  return (
    <section aria-labelledby="admin-registrations" className="flex flex-col gap-4">
      <h2 id="admin-registrations" className="text-lg font-semibold text-white">
        {ADMIN_MESSAGES.tabs.registrations}
      </h2>
      <search>
        <form
          className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-6"
          onSubmit={(e) => e.preventDefault()}
        >
          <Field label={M.search} hint={M.searchHint} className="lg:col-span-2">
            <Input
              type="search"
              value={filters.search}
              maxLength={100}
              onChange={(e) => set({ search: e.target.value })}
            />
          </Field>
          <Field label={M.platform}>
            <Select
              value={filters.platform}
              onChange={(e) => set({ platform: e.target.value as RegistrationFilters['platform'] })}
            >
              <option value="">{M.anyPlatform}</option>
              {REGISTRATION_PLATFORMS.map((p) => (
                <option key={p} value={p}>
                  {REGISTRATION_PLATFORM_LABELS[p]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={M.access}>
            <Select
              value={filters.access}
              onChange={(e) => set({ access: e.target.value as RegistrationFilters['access'] })}
            >
              <option value="">{M.anyAccess}</option>
              <option value="granted">{M.granted}</option>
              <option value="none">{M.none}</option>
            </Select>
          </Field>
          <Field label={M.from}>
            <Input type="date" value={filters.from} onChange={(e) => set({ from: e.target.value })} />
          </Field>
          <Field label={M.to}>
            <Input type="date" value={filters.to} onChange={(e) => set({ to: e.target.value })} />
          </Field>
          <Field label={M.sort}>
            <Select
              value={`${filters.sort}:${filters.order}`}
              onChange={(e) => {
                const [sort, order] = e.target.value.split(':') as [
                  RegistrationFilters['sort'],
                  RegistrationFilters['order'],
                ];
                set({ sort, order });
              }}
            >
              {(Object.keys(M.sorts) as SortKey[]).map((key) => (
                <option key={key} value={key}>
                  {M.sorts[key]}
                </option>
              ))}
            </Select>
          </Field>
        </form>
      </search>

      {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}

      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm text-slate-300" aria-live="polite">
          {query.data ? M.total(query.data.total) : null}
          {selected.size ? ` · ${M.selected(selected.size)}` : null}
        </span>
        <Button
          size="sm"
          disabled={selected.size === 0}
          onClick={() => setPending({ wallets: [...selected], grant: true })}
        >
          {M.grantSelected}
        </Button>
        <Button
          size="sm"
          variant="danger"
          disabled={selected.size === 0}
          onClick={() => setPending({ wallets: [...selected], grant: false })}
        >
          {M.revokeSelected}
        </Button>
      </div>

      <SectionState query={query}>
        {items.length === 0 ? (
          <p className="py-6 text-sm text-slate-400">{M.empty}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full min-w-[40rem] text-left text-sm text-slate-200">
              <thead className="text-xs uppercase text-slate-400">
                <tr>
                  <th scope="col" className="p-2">
                    <input
                      type="checkbox"
                      aria-label={M.selectAll}
                      checked={allSelected}
                      onChange={() =>
                        setSelected(allSelected ? new Set() : new Set(items.map((r) => r.wallet)))
                      }
                      className="size-4 accent-violet-500"
                    />
                  </th>
                  <th scope="col" className="p-2">
                    {M.columns.name}
                  </th>
                  <th scope="col" className="p-2">
                    {M.columns.platform}
                  </th>
                  <th scope="col" className="p-2 text-right">
                    {M.columns.followers}
                  </th>
                  <th scope="col" className="p-2">
                    {M.columns.submitted}
                  </th>
                  <th scope="col" className="p-2">
                    {M.columns.access}
                  </th>
                  <th scope="col" className="p-2">
                    {M.columns.actions}
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((r) => (
                  <Fragment key={r.wallet}>
                    <tr className="border-t border-slate-800" data-wallet={r.wallet}>
                      <td className="p-2">
                        <input
                          type="checkbox"
                          aria-label={M.select(r.name)}
                          checked={selected.has(r.wallet)}
                          onChange={() => toggle(r.wallet)}
                          className="size-4 accent-violet-500"
                        />
                      </td>
                      <td className="p-2">
                        <div className="font-medium text-white">{r.name}</div>
                        <div className="font-mono text-xs text-slate-400" title={r.wallet}>
                          {shortWallet(r.wallet)}
                        </div>
                      </td>
                      <td className="p-2">
                        {REGISTRATION_PLATFORM_LABELS[r.platform]} · {r.platform_username}
                      </td>
                      <td className="p-2 text-right tabular-nums">
                        {r.follower_count.toLocaleString('en-US')}
                      </td>
                      <td className="p-2 whitespace-nowrap">{formatDate(r.created_at)}</td>
                      <td className="p-2">
                        <Badge tone={r.hasAccess ? 'success' : 'neutral'}>
                          {r.hasAccess ? M.granted : M.none}
                        </Badge>
                      </td>
                      <td className="p-2">
                        <div className="flex gap-1">
                          <Button
                            size="sm"
                            variant="ghost"
                            aria-expanded={open === r.wallet}
                            aria-controls={`detail-${r.wallet}`}
                            aria-label={`${open === r.wallet ? M.hideDetails : M.details}: ${r.name}`}
                            onClick={() => setOpen(open === r.wallet ? null : r.wallet)}
                          >
                            {open === r.wallet ? M.hideDetails : M.details}
                          </Button>
                          <Button
                            size="sm"
                            variant={r.hasAccess ? 'secondary' : 'primary'}
                            aria-label={`${r.hasAccess ? M.revoke : M.grant}: ${r.name}`}
                            onClick={() => setPending({ wallets: [r.wallet], grant: !r.hasAccess })}
                          >
                            {r.hasAccess ? M.revoke : M.grant}
                          </Button>
                        </div>
                      </td>
                    </tr>
                    {open === r.wallet ? (
                      <tr id={`detail-${r.wallet}`} className="bg-slate-950/40">
                        <td colSpan={7} className="p-3">
                          <RegistrationDetail registration={r} />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <nav aria-label="Pages" className="flex items-center justify-between gap-2 pt-2">
          <Button
            size="sm"
            variant="secondary"
            disabled={filters.page <= 1}
            onClick={() => setFilters((f) => ({ ...f, page: f.page - 1 }))}
          >
            {M.previous}
          </Button>
          <span className="text-sm text-slate-300">{M.page(filters.page, pages)}</span>
          <Button
            size="sm"
            variant="secondary"
            disabled={filters.page >= pages}
            onClick={() => setFilters((f) => ({ ...f, page: f.page + 1 }))}
          >
            {M.next}
          </Button>
        </nav>
      </SectionState>

      <ConfirmDialog
        question={pending ? (pending.grant ? M.confirmGrant : M.confirmRevoke)(pending.wallets.length) : null}
        danger={pending ? !pending.grant : false}
        busy={change.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </section>
  );
}

function RegistrationDetail({ registration: r }: { registration: AdminRegistration }) {
  const D = ADMIN_MESSAGES.detail;
  const rows: Array<[string, string]> = [
    [D.wallet, r.wallet],
    [D.email, r.email],
    [D.platformUsername, `${r.platform_username} (${REGISTRATION_PLATFORM_LABELS[r.platform]})`],
    [D.channel, channelUrl(r.platform, r.platform_username)],
    [D.discord, r.discord_username ?? '—'],
    [D.frequency, r.streaming_frequency],
    [D.content, r.content_type],
    [D.balance, `${r.token_balance.toLocaleString('en-US')} STRM`],
    [D.interest, r.project_interest],
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
      {rows.map(([label, value]) => (
        <Fragment key={label}>
          <dt className="text-xs font-medium uppercase text-slate-400">{label}</dt>
          <dd className="break-all text-slate-100">{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
