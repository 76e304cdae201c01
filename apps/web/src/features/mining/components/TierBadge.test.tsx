import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TierBadge } from './TierBadge.tsx';

afterEach(cleanup);

describe('The header tier badge', () => {
  it("shows the active tier, 'No Active Tier' without one, and nothing while the streamer loads", () => {
    const { container, rerender } = render(<TierBadge activeTier={undefined} />);
    expect(container.textContent).toBe('');
    rerender(<TierBadge activeTier={null} />);
    expect(container.textContent).toBe('No Active Tier');
    rerender(<TierBadge activeTier="Tier 3" />);
    expect(container.textContent).toBe('Tier 3');
  });
});
