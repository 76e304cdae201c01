// The overlay page's entry (overlay.html): its own small bundle, no React, no wallet, no zod.
import './features/overlay/page/page.css';
import './features/overlay/view/overlay.css';
import { startOverlayPage } from './features/overlay/page/overlay-page.ts';

startOverlayPage(document.getElementById('overlay')!, window.location.hash);
