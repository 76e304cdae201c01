// Rendering that can wait until the browser has painted what is already there.
import { startTransition, useEffect, useState } from 'react';

/**
 * False until `ready` has been true for one painted frame, then true for good: what renders behind it comes
 * in a transition after that paint (in slices that leave the page responsive), not in the same task.
 */
export function useAfterPaint(ready: boolean): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    if (!ready || after) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A frame's callbacks run before its paint; a task queued from one runs after it.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setAfter(true)));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready, after]);
  return after;
}
