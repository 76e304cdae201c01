import { PRODUCT } from '@strm/shared';
import type { ReactNode } from 'react';
import { ConnectButton } from './ConnectButton.tsx';

/** The product's top bar: logo, optional extras (e.g. a version badge), the connect button. */
export function TopBar({ children }: { children?: ReactNode }) {
  return (
    <header className="border-b border-slate-800 bg-slate-950">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <div className="flex items-center gap-3">
          <Logo />
          {children}
        </div>
        <ConnectButton />
      </div>
    </header>
  );
}

export function Logo() {
  return (
    <span className="flex items-center gap-2 text-lg font-bold text-white">
      <span aria-hidden="true" className="grid size-8 place-items-center rounded-lg bg-violet-600 text-sm">
        {PRODUCT.slice(0, 1)}
      </span>
      {PRODUCT}
    </span>
  );
}
