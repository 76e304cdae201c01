// The live overlay and public card feature. The overlay page's entry (src/overlay.ts) loads page/ and
// view/ directly: it must not load this file's React panel.
export { OverlayPanel } from './components/OverlayPanel.tsx';
