// The overlay as it will look on a 16:9 scene, drawn by the overlay page's own view with the dashboard's
// live figures (or sample ones), the amount counting up between updates as on stream.
import type { OverlayState } from '@strm/shared';
import { useEffect, useRef } from 'react';
import { createOverlayView, type OverlayView } from '../view/render.ts';
import { received } from '../view/state.ts';
import '../view/overlay.css';

export function OverlayPreview({ state, label }: { state: OverlayState; label: string }) {
  const stage = useRef<HTMLDivElement>(null);
  const view = useRef<OverlayView | null>(null);

  useEffect(() => {
    if (!stage.current) return;
    view.current = createOverlayView(stage.current);
    let frame = requestAnimationFrame(function draw(now) {
      view.current?.tick(now);
      frame = requestAnimationFrame(draw);
    });
    return () => cancelAnimationFrame(frame);
  }, []);

  useEffect(() => {
    view.current?.show(received(state, performance.now()));
  }, [state]);

  return (
    <figure
      aria-label={label}
      data-testid="overlay-preview"
      className="@container relative m-0 aspect-video w-full max-w-2xl overflow-hidden rounded-lg border border-slate-700 bg-[repeating-conic-gradient(#1e293b_0_25%,#0f172a_0_50%)] bg-[length:24px_24px]"
    >
      {/* 1.6vh of a 1080p source is 0.9% of its width: the same proportions at any preview size. */}
      <div ref={stage} className="absolute inset-0 text-[0.9cqw]" />
    </figure>
  );
}
