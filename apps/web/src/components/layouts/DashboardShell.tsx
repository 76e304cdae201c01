import type { ReactNode } from 'react';
import { VERSIONS } from '../../config.ts';
import { shortAddress } from '../../lib/format.ts';
import { Badge, Button } from '../ui/index.ts';

export const DISCONNECT_LABEL = 'Disconnect';

/**
 * The dashboard's frame: header in the order of docs/product.md#dashboard: logo, version badge, the tier
 * badge, then the wallet, Disconnect and the admin-only maintenance toggle. The dashboard's sections render
 * as children.
 */
export function DashboardShell({
  logo,
  wallet,
  adminControls,
  tierBadge,
  onDisconnect,
  children,
}: {
  logo: ReactNode;
  wallet: string;
  adminControls?: ReactNode;
  /** The active tier's badge, or 'No Active Tier'. */
  tierBadge?: ReactNode;
  onDisconnect(): void;
  children?: ReactNode;
}) {
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-800 bg-slate-950/80">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="flex items-center gap-3">
            {logo}
            <Badge tone="accent">{VERSIONS.dashboard}</Badge>
            {tierBadge}
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <span className="font-mono text-sm text-slate-400" title={wallet}>
              {shortAddress(wallet)}
            </span>
            <Button variant="secondary" size="sm" onClick={onDisconnect}>
              {DISCONNECT_LABEL}
            </Button>
            {adminControls}
          </div>
        </div>
      </header>
      <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6">{children}</main>
    </div>
  );
}
