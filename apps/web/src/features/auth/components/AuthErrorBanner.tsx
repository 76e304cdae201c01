import { INTERVALS_MS } from '@strm/shared';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/index.ts';
import { AUTH_ERROR_PARAM } from '../context.ts';
import { AUTH_MESSAGES } from '../messages.ts';

/** The error from ?authError= with the spec's hint; the parameter is removed from the URL after 5 s. */
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
    <Alert tone="error" title={error} className="mx-auto mt-4 w-full max-w-5xl">
      {AUTH_MESSAGES.hint}
    </Alert>
  );
}
