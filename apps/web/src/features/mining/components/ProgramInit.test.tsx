// When the program client's code cannot be loaded (a failed chunk download), a wallet transaction says
// 'Failed to initialize program' (docs/product.md#tier-messages) and the button is usable again, instead of
// failing silently.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../../components/ui/index.ts';
import { useWalletTransactions } from '../useWalletTransactions.ts';
import { serveClientConfig } from './client-config.fixture.ts';
import { RewardsPanel } from './RewardsPanel.tsx';

const wallet = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

vi.mock('../../../lib/mining-client.ts', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});
// web3.js's transaction encoding checks Uint8Array across realms, which jsdom breaks.
vi.mock('@solana/web3.js', async (original) => ({
  ...(await original<typeof import('@solana/web3.js')>()),
  SystemProgram: { transfer: () => ({ keys: [], data: new Uint8Array() }) },
}));
vi.mock('../../auth/index.ts', () => ({
  useAuth: () => ({ wallet, sendTransaction: async () => 'sig' }),
}));
vi.mock('../../../lib/socket.ts', async (original) => ({
  ...(await original<typeof import('../../../lib/socket.ts')>()),
  requestSocket: () => ({ emitWithAck: async () => ({ data: { amount: 1, signature: 'sig' } }) }),
}));

beforeEach(serveClientConfig);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Rewards() {
  const actions = useWalletTransactions(wallet);
  return <RewardsPanel pending={5} isLive={false} sessionMined={0} actions={actions} />;
}

describe('A blockchain action without the program client', () => {
  it("shows 'Failed to initialize program' and re-enables the button", { timeout: 30_000 }, async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <ToastProvider>
          <Rewards />
        </ToastProvider>
      </QueryClientProvider>,
    );
    const collect = () => screen.getByRole('button', { name: /Collect Rewards|Collecting\.\.\./ });
    fireEvent.click(collect());
    await screen.findByText('Failed to initialize program', undefined, { timeout: 10_000 });
    await waitFor(() => expect(collect().hasAttribute('disabled')).toBe(false));
  });
});
