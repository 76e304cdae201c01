import { INTERVALS_MS } from '@strm/shared';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/index.ts';
import { AUTH_ERROR_PARAM } from '../context.ts';
import { AUTH_MESSAGES } from '../messages.ts';

/** What the app itself puts in ?authError= (WalletAuth); a link can put anything there. */
const KNOWN_ERRORS: ReadonlySet<string> = new Set([
  AUTH_MESSAGES.nonceFailed,
  AUTH_MESSAGES.authFailed,
  AUTH_MESSAGES.phantomNotFound,
]);

/**
 * The error from ?authError= with the hint of docs/product.md#landing-page; the parameter is removed from the
 * URL after 5 s. Only the app's own messages are shown: any other text (a crafted link's "send your seed
 * phrase to…") shows as 'Authentication failed'.
 */
export function AuthErrorBanner() {
  const [params, setParams] = useSearchParams();
  const error = params.get(AUTH_ERROR_PARAM);
  useEffect(() => {
    if (!error) return;
    const timer = setTimeout(() => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(AUTH_ERROR_PARAM);
          return next;
        },
        { replace: true },
      );
    }, INTERVALS_MS.authErrorRemoval);
    return () => clearTimeout(timer);
  }, [error, setParams]);
  if (!error) return null;
  return (
    <Alert
      tone="error"
      title={KNOWN_ERRORS.has(error) ? error : AUTH_MESSAGES.authFailed}
      className="mx-auto mt-4 w-full max-w-5xl"
    >
      {AUTH_MESSAGES.hint}
    </Alert>
  );
}
