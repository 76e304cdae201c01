import { tiktokExchangeCodeResponseSchema } from '@strm/shared';
import { useEffect } from 'react';
import { apiRequest } from '../../lib/api.ts';
import { callbackMessage, readCallback } from './callback.ts';

function exchangeCode(code: string, state: string | undefined) {
  return apiRequest('/tiktok/exchange-code', tiktokExchangeCodeResponseSchema, {
    method: 'POST',
    body: { code, state },
  });
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
