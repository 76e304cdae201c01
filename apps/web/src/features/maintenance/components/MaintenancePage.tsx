import { Badge, Card } from '../../../components/ui/index.ts';
import { COMMUNITY_LINKS, VERSIONS } from '../../../config.ts';
import { MAINTENANCE_MESSAGES } from '../messages.ts';
import { MaintenanceToggle } from './MaintenanceToggle.tsx';

/** Shown to users with beta access while maintenance is on. */
export function MaintenancePage({ message, isAdmin }: { message: string; isAdmin: boolean }) {
  return (
    <main className="grid min-h-screen place-items-center px-4">
      <Card as="section" aria-labelledby="maintenance-title" className="w-full max-w-lg text-center">
        <div aria-hidden="true" className="mb-4 text-5xl">
          🛠️
        </div>
        <h1 id="maintenance-title" className="text-2xl font-bold text-white">
          {MAINTENANCE_MESSAGES.title}
        </h1>
        <p className="mt-3 text-slate-300">{message}</p>
        <div className="mt-4">
          <Badge tone="accent">{VERSIONS.maintenance}</Badge>
        </div>
        {isAdmin ? (
          <div className="mt-6 flex justify-center">
            <MaintenanceToggle on={false} size="md" />
          </div>
        ) : null}
        <nav aria-label="Community" className="mt-6 flex justify-center gap-4 text-sm">
          {COMMUNITY_LINKS.map((link) => (
            <a key={link.href} href={link.href} target="_blank" rel="noreferrer">
              {link.label}
            </a>
          ))}
        </nav>
      </Card>
    </main>
  );
}
