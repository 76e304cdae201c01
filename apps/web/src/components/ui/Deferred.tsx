import { Component, type ReactNode, Suspense } from 'react';
import { Alert } from './Alert.tsx';
import { Spinner } from './Spinner.tsx';

/** Shows `fallback` instead of its children once they throw (e.g. a chunk that could not be downloaded). */
export class ErrorBoundary extends Component<
  { fallback: ReactNode; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * A part of the page whose code is loaded on demand (React.lazy): a spinner reading `loading` meanwhile,
 * and `failed` in a warning banner, not a blank page, when it cannot be loaded.
 */
export function Deferred({
  loading,
  failed,
  children,
}: {
  loading: string;
  failed: ReactNode;
  children: ReactNode;
}) {
  return (
    <ErrorBoundary fallback={<Alert tone="warning">{failed}</Alert>}>
      <Suspense fallback={<Spinner label={loading} />}>{children}</Suspense>
    </ErrorBoundary>
  );
}

export const CHART_MESSAGES = {
  loading: 'Loading chart...',
  failed: 'The chart could not be loaded. Reload the page to try again.',
} as const;

/** A chart loaded on demand (the chart library is not part of the first download). */
export function DeferredChart({ children }: { children: ReactNode }) {
  return (
    <Deferred loading={CHART_MESSAGES.loading} failed={CHART_MESSAGES.failed}>
      {children}
    </Deferred>
  );
}
