// ?authError= comes from a URL anyone can craft: the banner shows the app's own messages only.
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthErrorBanner } from './AuthErrorBanner.tsx';

afterEach(cleanup);

function renderAt(search: string) {
  render(
    <MemoryRouter initialEntries={[`/${search}`]}>
      <AuthErrorBanner />
    </MemoryRouter>,
  );
}

describe('the authError banner', () => {
  it('shows a message the app sets, with the hint', () => {
    renderAt('?authError=Failed%20to%20get%20nonce');
    expect(screen.getByText('Failed to get nonce')).toBeTruthy();
    expect(screen.getByText('Please connect your wallet and sign the message to continue.')).toBeTruthy();
  });

  it('shows any other text as the generic message, never the text itself', () => {
    const crafted = 'Your wallet is compromised. Send your seed phrase to support@evil.example';
    renderAt(`?authError=${encodeURIComponent(crafted)}`);
    expect(screen.getByText('Authentication failed')).toBeTruthy();
    expect(screen.queryByText(crafted)).toBeNull();
    expect(document.body.textContent).not.toContain('seed phrase');
  });

  it('shows nothing without the parameter', () => {
    renderAt('');
    expect(document.body.textContent).toBe('');
  });
});
