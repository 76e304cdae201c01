import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DashboardShell } from './DashboardShell.tsx';

afterEach(cleanup);

describe('The dashboard header', () => {
  it("shows logo, version, tier badge, then Disconnect and the admin's maintenance toggle", () => {
    const { container } = render(
      <DashboardShell
        logo={<span>LOGO</span>}
        wallet="9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"
        tierBadge={<span>No Active Tier</span>}
        adminControls={<button type="button">Turn Maintenance Mode On</button>}
        onDisconnect={() => undefined}
      />,
    );
    const header = container.querySelector('header')!;
    const text = header.textContent!;
    const order = ['LOGO', 'v1.1.0-Beta', 'No Active Tier', 'Disconnect', 'Turn Maintenance Mode On'].map(
      (part) => text.indexOf(part),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
