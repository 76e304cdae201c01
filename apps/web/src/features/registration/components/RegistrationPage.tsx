import { PRODUCT } from '@strm/shared';
import { Badge, Button, Card, Spinner } from '../../../components/ui/index.ts';
import { VERSIONS } from '../../../config.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useTokenBalance } from '../../streamer/index.ts';
import { useMyRegistration } from '../api.ts';
import { REGISTRATION_MESSAGES } from '../messages.ts';
import { RegistrationForm } from './RegistrationForm.tsx';

/**
 * Beta Registration, or Already Registered when the wallet has registered
 * (docs/product.md#beta-registration).
 */
export function RegistrationPage({
  wallet,
  logo,
  onDisconnect,
}: {
  wallet: string;
  logo: React.ReactNode;
  onDisconnect(): void;
}) {
  const registration = useMyRegistration(wallet);
  const balance = useTokenBalance(wallet);

  return (
    <main className="mx-auto flex min-h-screen w-full max-w-2xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-3">
        <div className="flex items-center justify-between gap-3">
          {logo}
          <Badge tone="accent">{VERSIONS.registration}</Badge>
        </div>
        <h1 className="text-3xl font-bold text-white">{REGISTRATION_MESSAGES.title}</h1>
        <p className="text-slate-300">{REGISTRATION_MESSAGES.intro}</p>
      </header>

      <Card
        as="section"
        aria-label={REGISTRATION_MESSAGES.balanceLabel}
        className="flex items-center justify-between"
      >
        <span className="text-sm text-slate-400">{REGISTRATION_MESSAGES.balanceLabel}</span>
        {balance.data ? (
          <span data-testid="token-balance" className="text-xl font-semibold text-white">
            {formatNumber(balance.data.balance)} {PRODUCT}
          </span>
        ) : balance.isError ? (
          <span className="text-xl font-semibold text-slate-500">—</span>
        ) : (
          <Spinner />
        )}
      </Card>

      <Card as="section">
        {registration.isPending ? (
          <Spinner />
        ) : registration.data ? (
          <AlreadyRegistered onDisconnect={onDisconnect} />
        ) : (
          <RegistrationForm wallet={wallet} onDisconnect={onDisconnect} />
        )}
      </Card>
    </main>
  );
}

function AlreadyRegistered({ onDisconnect }: { onDisconnect(): void }) {
  return (
    <div className="flex flex-col items-center gap-3 py-6 text-center">
      <div
        aria-hidden="true"
        className="grid size-12 place-items-center rounded-full bg-emerald-900 text-2xl"
      >
        ✓
      </div>
      <h2 className="text-2xl font-semibold text-white">{REGISTRATION_MESSAGES.registeredTitle}</h2>
      <p className="text-slate-300">{REGISTRATION_MESSAGES.registeredBody}</p>
      <p className="text-slate-300">{REGISTRATION_MESSAGES.registeredThanks}</p>
      <Button variant="secondary" className="mt-2" onClick={onDisconnect}>
        {REGISTRATION_MESSAGES.disconnect}
      </Button>
    </div>
  );
}
