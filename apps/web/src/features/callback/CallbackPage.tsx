import { useEffect } from 'react';
import { z } from 'zod';
import { apiRequest } from '../../lib/api.ts';
import { callbackMessage, readCallback } from './callback.ts';

const exchangeResponse = z.object({
  success: z.boolean(),
  access_token: z.string().optional(),
  message: z.string().optional(),
});

function exchangeCode(code: string, state: string | undefined) {
  return apiRequest('/tiktok/exchange-code', exchangeResponse, { method: 'POST', body: { code, state } });
}

/** The authorisation return page: hands the result to the opener (same origin only) and closes. */
export function CallbackPage() {
  useEffect(() => {
    let cancelled = false;
    void callbackMessage(readCallback(new URL(window.location.href)), exchangeCode).then((message) => {
      if (cancelled) return;
      window.opener?.postMessage(message, window.location.origin);
      window.close();
    });
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <div className="grid min-h-[60vh] place-items-center">
      <p>Authorizing...</p>
    </div>
  );
}
