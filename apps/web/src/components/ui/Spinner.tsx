import { cn } from './cn.ts';

/** A spinning ring with a visible label, announced politely to screen readers. */
export function Spinner({ label, className }: { label?: string; className?: string }) {
  return (
    <output aria-live="polite" className={cn('flex items-center gap-3', className)}>
      <span
        aria-hidden="true"
        className="size-5 animate-spin rounded-full border-2 border-violet-400/30 border-t-violet-400"
      />
      {label ? (
        <span className="text-sm text-slate-300">{label}</span>
      ) : (
        <span className="sr-only">Loading</span>
      )}
    </output>
  );
}

/** A spinner centred in the page, for whole-screen waits. */
export function PageSpinner({ label }: { label: string }) {
  return (
    <div className="grid min-h-[60vh] place-items-center">
      <Spinner label={label} />
    </div>
  );
}
