// A screen loaded on demand: a spinner while its chunk downloads, and an error with Reload if it cannot be
// downloaded (React.lazy without an error boundary would unmount the whole app).
import { type ReactNode, Suspense } from 'react';
import { Alert, Button, ErrorBoundary, PageSpinner } from '../components/ui/index.ts';
import { AUTH_MESSAGES } from '../features/auth/index.ts';

export const LOADED_MESSAGES = {
  failed: 'This page could not be loaded.',
  reload: 'Reload',
} as const;

export function Loaded({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary
      fallback={
        <Alert tone="error" title={LOADED_MESSAGES.failed} className="mx-auto mt-8 max-w-xl">
          <Button size="sm" variant="secondary" className="mt-2" onClick={() => window.location.reload()}>
            {LOADED_MESSAGES.reload}
          </Button>
        </Alert>
      }
    >
      <Suspense fallback={<PageSpinner label={AUTH_MESSAGES.loading} />}>{children}</Suspense>
    </ErrorBoundary>
  );
}
