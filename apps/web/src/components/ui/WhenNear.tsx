import type { ReactNode } from 'react';
import { useNearViewport } from './near-viewport.ts';

/**
 * Renders `children` once their place comes within 200 px of the viewport or the user presses a key
 * (near-viewport.ts); until then an empty block of `className`'s height (about theirs, so the page below
 * does not jump). For what sits below the fold of a page whose first load must be cheap.
 */
export function WhenNear({ children, className }: { children: ReactNode; className: string }) {
  const { ref, near } = useNearViewport<HTMLDivElement>('200px', { orKey: true });
  if (near) return children;
  return <div ref={ref} className={className} />;
}
