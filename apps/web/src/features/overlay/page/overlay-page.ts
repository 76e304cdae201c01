// The overlay page (overlay.html, an OBS browser source): its link's token from the address's fragment
// (never sent in a request line, so never in a log), the read-only overlay namespace, and the view redrawn
// every frame so that the session's amount counts up between the server's updates.
import type { OverlayServerEvents } from '@strm/shared';
import { OVERLAY_EVENTS, OVERLAY_MESSAGES, OVERLAY_NAMESPACE } from '@strm/shared/overlay-constants';
import { io, type Socket } from 'socket.io-client';
import { OVERLAY_VIEW_TEXT } from '../view/messages.ts';
import { createOverlayView } from '../view/render.ts';
import { held, patched, received, type ShownState } from '../view/state.ts';

/** After the server refused or dropped the overlay (but not its link): try again after this long. */
const RETRY_MS = 3000;

export function startOverlayPage(root: HTMLElement, hash: string): void {
  const view = createOverlayView(root);
  const token = decodeURIComponent(hash.replace(/^#/, ''));
  if (!token) {
    view.show(null, OVERLAY_VIEW_TEXT.noLink);
    return;
  }
  let shown: ShownState | null = null;
  let ended = false;
  // Reconnects on its own (forever, backing off to 5 s) when the connection or the API goes away.
  const socket: Socket<OverlayServerEvents, Record<never, never>> = io(OVERLAY_NAMESPACE, {
    transports: ['websocket'],
    auth: { overlayToken: token },
    reconnectionDelay: 1000,
    reconnectionDelayMax: 5000,
  });
  const show = (next: ShownState | null, message?: string) => {
    shown = next;
    view.show(next, message);
  };
  const end = (message: string) => {
    ended = true;
    socket.close();
    show(null, message);
  };
  const retry = () => {
    setTimeout(() => {
      if (!ended && !socket.connected) socket.connect();
    }, RETRY_MS);
  };

  socket.on(OVERLAY_EVENTS.state, (state) => show(received(state, performance.now())));
  socket.on(OVERLAY_EVENTS.update, (update) => {
    if (shown) show(patched(shown, update, performance.now()));
  });
  socket.on(OVERLAY_EVENTS.revoked, ({ message }) => end(message));
  socket.on('connect_error', (err: Error & { data?: { error?: string } }) => {
    if (err.data?.error === 'invalid_overlay_token') end(OVERLAY_MESSAGES.invalidToken);
    // Refused for now (too many attempts, the database away): the client does not retry that by itself.
    else if (!socket.active) retry();
  });
  socket.on('disconnect', (reason) => {
    if (ended) return;
    if (shown) show(held(shown, performance.now()));
    if (reason === 'io server disconnect') retry();
  });

  const frame = (now: number) => {
    view.tick(now);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}
