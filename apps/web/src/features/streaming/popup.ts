// What the Twitch, YouTube and Kick panels share to authorise in a popup: the popup opened centred on the
// page, the answer our own /callback page posts back (docs/product.md#authorisation-return-page), and the
// error message shown when a request fails.
import { useEffect } from 'react';
import type { z } from 'zod';
import { ApiRequestError } from '../../lib/api.ts';

/** The authorisation popup's size. */
export const POPUP = { width: 600, height: 800 } as const;

/** The server's message for a refused request, else `fallback`. */
export const messageOf = (err: unknown, fallback: string) =>
  err instanceof ApiRequestError && err.message ? err.message : fallback;

/** Opens `url` in a popup named `name`, centred on this window; false when the browser blocked it. */
export function openPopup(url: string, name: string): boolean {
  const left = window.screenX + (window.outerWidth - POPUP.width) / 2;
  const top = window.screenY + (window.outerHeight - POPUP.height) / 2;
  return Boolean(
    window.open(url, name, `width=${POPUP.width},height=${POPUP.height},left=${left},top=${top}`),
  );
}

/**
 * Calls `onAnswer` with each message /callback posts that `schema` accepts, from this origin only (a page of
 * another origin cannot hand this panel a token or a code). Off while `enabled` is false.
 */
export function useCallbackMessage<T>(
  schema: z.ZodType<T>,
  onAnswer: (answer: T) => void,
  enabled = true,
): void {
  useEffect(() => {
    if (!enabled) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      const parsed = schema.safeParse(event.data);
      if (parsed.success) onAnswer(parsed.data);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  });
}
