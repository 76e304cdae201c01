import type { ReactNode } from 'react';
import { cn } from './cn.ts';

/**
 * A data table that scrolls sideways on a narrow screen: a header row of column names (and, after them,
 * header cells of the caller's: a select-all box, an actions column), then the caller's rows.
 */
export function Table({
  columns,
  leading,
  trailing,
  className,
  children,
}: {
  columns: readonly string[];
  /** Header cells before the named columns. */
  leading?: ReactNode;
  /** Header cells after the named columns. */
  trailing?: ReactNode;
  /** The table's own classes (its minimum width). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto">
      <table className={cn('w-full text-left text-sm text-slate-200', className)}>
        <thead className="text-xs uppercase text-slate-400">
          <tr>
            {leading}
            {columns.map((c) => (
              <th key={c} scope="col" className="p-2">
                {c}
              </th>
            ))}
            {trailing}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
