import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallbackPage } from './CallbackPage.tsx';

describe('CallbackPage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows Authorizing..., posts the token to the opener on our origin and closes', async () => {
    window.history.replaceState(null, '', '/callback#access_token=tok&expires_in=60');
    const postMessage = vi.fn();
    vi.stubGlobal('opener', { postMessage });
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});

    render(<CallbackPage />);
    expect(screen.getByText('Authorizing...')).toBeTruthy();
    await waitFor(() => expect(close).toHaveBeenCalled());
    expect(postMessage).toHaveBeenCalledWith(
      { type: 'TWITCH_AUTH', access_token: 'tok', expires_in: 60 },
      window.location.origin,
    );
  });
});
