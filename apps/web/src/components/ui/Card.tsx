import type { HTMLAttributes } from 'react';
import { cn } from './cn.ts';

/** A bordered panel; `as="section"` etc. for landmarks. */
export function Card({
  as: Tag = 'div',
  className,
  ...props
}: HTMLAttributes<HTMLElement> & { as?: 'div' | 'section' | 'article' | 'aside' }) {
  return (
    <Tag
      className={cn('rounded-2xl border border-slate-700/70 bg-slate-900/70 p-5 shadow-lg', className)}
      {...props}
    />
  );
}

export function CardTitle({ className, ...props }: HTMLAttributes<HTMLHeadingElement>) {
  return <h2 className={cn('mb-3 text-lg font-semibold text-white', className)} {...props} />;
}
