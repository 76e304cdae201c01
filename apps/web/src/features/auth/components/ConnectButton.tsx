import { Button, useToast } from '../../../components/ui/index.ts';
import { PhantomNotFoundError } from '../../../lib/wallet-errors.ts';
import { useAuth } from '../context.ts';
import { AUTH_MESSAGES } from '../messages.ts';

export const CONNECT_LABEL = 'Connect Wallet';
/** While the wallet code downloads after a press of Connect (it is not part of the landing page). */
export const LOADING_WALLET_LABEL = 'Loading wallet...';

/** The top bar's connect button: Phantom first; 'Phantom Wallet not found' without a wallet. */
export function ConnectButton({ label = CONNECT_LABEL }: { label?: string }) {
  const auth = useAuth();
  const toast = useToast();
  if (auth.status === 'authenticated') return null;
  const busy = auth.status !== 'disconnected';
  return (
    <Button
      disabled={busy}
      aria-busy={busy || undefined}
      onClick={() =>
        auth.connect().catch((err: unknown) => {
          toast.show(
            err instanceof PhantomNotFoundError ? AUTH_MESSAGES.phantomNotFound : AUTH_MESSAGES.authFailed,
            'error',
          );
        })
      }
    >
      {busy && (
        <span
          aria-hidden="true"
          className="size-4 animate-spin rounded-full border-2 border-white/30 border-t-white"
        />
      )}
      {!busy ? label : auth.status === 'loading' ? LOADING_WALLET_LABEL : AUTH_MESSAGES.authenticating}
    </Button>
  );
}
