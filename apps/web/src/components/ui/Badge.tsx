import type { ReactNode } from 'react';
import { cn } from './cn.ts';

const tones = {
  neutral: 'bg-slate-800 text-slate-200 ring-slate-600',
  accent: 'bg-violet-950 text-violet-200 ring-violet-500/50',
  success: 'bg-emerald-950 text-emerald-300 ring-emerald-500/50',
  warning: 'bg-amber-950 text-amber-300 ring-amber-500/50',
  danger: 'bg-red-950 text-red-300 ring-red-500/50',
} as const;

export function Badge({
  tone = 'neutral',
  children,
  className,
}: {
  tone?: keyof typeof tones;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1',
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
