import { DEFAULT_TIERS } from '@strm/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api.ts';
import type { useWalletTransactions } from '../useWalletTransactions.ts';
import { MiningControls } from './MiningControls.tsx';

type Actions = ReturnType<typeof useWalletTransactions>;

const tiersBody = DEFAULT_TIERS.map((t, i) => ({ id: i + 1, ...t }));

beforeEach(() => {
  fakeApi({ 'GET /tiers': () => ({ body: tiersBody }) });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function fakeActions(overrides: Partial<Actions> = {}): Actions {
  return {
    busy: null,
    error: null,
    success: null,
    clearMessages: vi.fn(),
    activate: vi.fn(async () => undefined),
    deactivate: vi.fn(async () => undefined),
    collect: vi.fn(async () => undefined),
    ...overrides,
  };
}

async function renderControls(
  state: { activeTier?: string | null; isLive?: boolean; balance?: number | undefined },
  actions = fakeActions(),
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MiningControls
        activeTier={state.activeTier ?? null}
        isLive={state.isLive ?? false}
        balance={'balance' in state ? state.balance : 0}
        actions={actions}
      />
    </QueryClientProvider>,
  );
  await screen.findByTestId('tier-card-9');
  return actions;
}

const card = (n: number) => within(screen.getByTestId(`tier-card-${n}`));
const button = (n: number) => card(n).getByRole('button');

describe('Mining Controls', () => {
  it("shows 'Loading tiers...', then the nine tier cards", async () => {
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <MiningControls activeTier={null} isLive={false} balance={0} actions={fakeActions()} />
      </QueryClientProvider>,
    );
    expect(screen.getByText('Loading tiers...')).toBeTruthy();
    await screen.findByTestId('tier-card-9');
    expect(screen.getAllByRole('listitem')).toHaveLength(9);
  });

  it("activates a tier the balance covers with the deposit shown; 'Insufficient STRM balance' otherwise", async () => {
    const actions = await renderControls({ balance: 7_500 });
    expect(button(1).hasAttribute('disabled')).toBe(false);
    expect(button(2).hasAttribute('disabled')).toBe(false);
    expect(button(3).hasAttribute('disabled')).toBe(true);
    expect(card(3).getByText('Insufficient STRM balance')).toBeTruthy();
    expect(button(3).getAttribute('aria-describedby')).toBeTruthy();
    fireEvent.click(button(2));
    expect(actions.activate).toHaveBeenCalledWith('Tier 2', 5_000);
  });

  it('says no tier is out of reach before the balance is read, and activates none meanwhile', async () => {
    await renderControls({ balance: undefined });
    for (let n = 1; n <= 9; n++) {
      expect(button(n).hasAttribute('disabled')).toBe(true);
      expect(card(n).queryByText('Insufficient STRM balance')).toBeNull();
      expect(card(n).getByText('Reading your STRM balance...')).toBeTruthy();
    }
  });

  it('allows one tier at a time, and no deactivating while mining is active', async () => {
    const actions = await renderControls({ activeTier: 'Tier 1', balance: 2_000_000 });
    expect(card(1).getByText('Active')).toBeTruthy();
    expect(button(1).textContent).toBe('Deactivate');
    for (const n of [2, 5, 9]) {
      expect(button(n).hasAttribute('disabled')).toBe(true);
      expect(card(n).getByText('Only 1 tier can be active at a time')).toBeTruthy();
    }
    fireEvent.click(button(1));
    expect(actions.deactivate).toHaveBeenCalledWith('Tier 1');
    cleanup();

    await renderControls({ activeTier: 'Tier 1', isLive: true, balance: 2_000_000 });
    expect(button(1).hasAttribute('disabled')).toBe(true);
    expect(card(1).getByText('Cannot deactivate tier while mining is active')).toBeTruthy();
  });

  it("disables every card while a request is in progress, and shows the action's failure", async () => {
    await renderControls(
      { balance: 2_000_000 },
      fakeActions({
        busy: { action: 'activate', tier: 'Tier 4' },
        error: { action: 'activate', message: 'Failed to activate tier' },
      }),
    );
    expect(button(4).textContent).toBe('Processing...');
    for (let n = 1; n <= 9; n++) expect(button(n).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('alert').textContent).toBe('Failed to activate tier');
  });
});
