import type { ReactNode } from 'react';
import { Alert, Button, Spinner } from '../../../components/ui/index.ts';
import { ADMIN_MESSAGES } from '../messages.ts';

/** A query's loading and error states; the content once it has data. */
export function SectionState({
  query,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: Error | null; refetch(): unknown };
  children: ReactNode;
}) {
  if (query.isPending) return <Spinner label={ADMIN_MESSAGES.loading} className="py-6" />;
  if (query.isError) {
    return (
      <Alert tone="error" title={ADMIN_MESSAGES.failed}>
        <p>{query.error?.message}</p>
        <Button size="sm" variant="secondary" className="mt-2" onClick={() => void query.refetch()}>
          {ADMIN_MESSAGES.retry}
        </Button>
      </Alert>
    );
  }
  return <>{children}</>;
}

export const shortWallet = (wallet: string) => `${wallet.slice(0, 4)}…${wallet.slice(-4)}`;

export const formatDate = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) +
  ' UTC';
