import type { ReactNode } from 'react';
import { cn } from './cn.ts';

const tones = {
  error: 'border-red-500/50 bg-red-950/60 text-red-200',
  info: 'border-sky-500/50 bg-sky-950/60 text-sky-200',
  success: 'border-emerald-500/50 bg-emerald-950/60 text-emerald-200',
  warning: 'border-amber-500/50 bg-amber-950/60 text-amber-200',
} as const;

/**
 * A banner. Errors and warnings are announced at once (role="alert"); info and success politely
 * (role="status").
 */
export function Alert({
  tone = 'info',
  title,
  children,
  className,
}: {
  tone?: keyof typeof tones;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div
      role={tone === 'error' || tone === 'warning' ? 'alert' : 'status'}
      data-tone={tone}
      className={cn('rounded-lg border px-4 py-3 text-sm', tones[tone], className)}
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? 'mt-1' : undefined}>{children}</div> : null}
    </div>
  );
}
