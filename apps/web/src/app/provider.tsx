// Every provider of the app, outermost first: server state (TanStack Query), the wallet adapter, toasts,
// and the sign-in session (which needs the wallet and the router).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ToastProvider } from '../components/ui/index.ts';
import { WalletProviders } from '../lib/wallet.ts';

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <WalletProviders>
        <ToastProvider>{children}</ToastProvider>
      </WalletProviders>
    </QueryClientProvider>
  );
}
