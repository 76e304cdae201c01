// Whether an element has come near the viewport: what the landing page's sections below the fold and the
// bar chart wait for before they render (docs/architecture.md#the-landing-pages-first-load).
import { useEffect, useRef, useState } from 'react';

/**
 * `near` turns true, once, when the element comes within `margin` of the viewport, or with `orKey` at the
 * user's first key press anywhere on the page (a keyboard user's Tab, a screen reader's or Find in page's
 * shortcut): what it reveals is then in the page before the key's own action moves focus or searches.
 * Without IntersectionObserver (an old browser, jsdom) it is true at once.
 */
export function useNearViewport<T extends Element>(margin: string, { orKey = false } = {}) {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = ref.current;
    if (near || !el) return;
    const reveal = () => setNear(true);
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && reveal(), {
      rootMargin: margin,
    });
    seen.observe(el);
    if (orKey) window.addEventListener('keydown', reveal, { capture: true, once: true });
    return () => {
      seen.disconnect();
      window.removeEventListener('keydown', reveal, { capture: true });
    };
  }, [margin, near, orKey]);
  return { ref, near };
}
