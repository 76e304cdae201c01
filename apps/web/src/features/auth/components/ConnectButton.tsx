import { Button, useToast } from '../../../components/ui/index.ts';
import { PhantomNotFoundError } from '../../../lib/wallet-errors.ts';
import { useAuth } from '../context.ts';
import { AUTH_MESSAGES } from '../messages.ts';

export const CONNECT_LABEL = 'Connect Wallet';

/** The top bar's connect button: Phantom first; 'Phantom Wallet not found' without a wallet. */
export function ConnectButton({ label = CONNECT_LABEL }: { label?: string }) {
  const auth = useAuth();
  const toast = useToast();
  if (auth.status === 'authenticated') return null;
  const busy = auth.status !== 'disconnected';
  return (
    <Button
      disabled={busy}
      onClick={() =>
        auth.connect().catch((err: unknown) => {
          toast.show(
            err instanceof PhantomNotFoundError ? AUTH_MESSAGES.phantomNotFound : AUTH_MESSAGES.authFailed,
            'error',
          );
        })
      }
    >
      {busy ? AUTH_MESSAGES.authenticating : label}
    </Button>
  );
}
