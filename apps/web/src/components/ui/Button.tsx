import type { ButtonHTMLAttributes } from 'react';
import { cn } from './cn.ts';

const variants = {
  primary: 'bg-violet-600 text-white hover:bg-violet-700 focus-visible:outline-violet-400',
  secondary:
    'border border-slate-600 bg-slate-800 text-slate-100 hover:bg-slate-700 focus-visible:outline-slate-400',
  danger: 'bg-red-600 text-white hover:bg-red-700 focus-visible:outline-red-400',
  ghost: 'text-slate-200 hover:bg-slate-800 focus-visible:outline-slate-400',
} as const;

const sizes = { sm: 'px-3 py-1.5 text-sm', md: 'px-4 py-2 text-sm', lg: 'px-5 py-3 text-base' } as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
}

/** The one button. Disabled buttons stay focusable for screen readers through aria-disabled styling. */
export function Button({
  variant = 'primary',
  size = 'md',
  className,
  type = 'button',
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      className={cn(
        'inline-flex items-center justify-center gap-2 rounded-lg font-medium transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50',
        variants[variant],
        sizes[size],
        className,
      )}
      {...props}
    />
  );
}
