import { cn } from './cn.ts';

const tones = { accent: 'bg-violet-500', success: 'bg-emerald-500' } as const;

/**
 * A labelled bar of `value` against `max` (role progressbar, 0–100 %), clamped to the bar; an unknown
 * max (0) shows an empty bar.
 */
export function ProgressBar({
  label,
  value,
  max,
  tone = 'accent',
  className,
}: {
  label: string;
  value: number;
  max: number;
  tone?: keyof typeof tones;
  className?: string;
}) {
  const percent = max > 0 ? Math.min(100, Math.max(0, (value / max) * 100)) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(percent)}
      className={cn('h-2 overflow-hidden rounded-full bg-slate-800', className)}
    >
      <div className={cn('h-full', tones[tone])} style={{ width: `${percent}%` }} />
    </div>
  );
}
