import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { INTERVALS_MS } from '@strm/shared';
import { cn } from './cn.ts';

type Tone = 'info' | 'success' | 'error';
interface ToastItem {
  id: number;
  tone: Tone;
  message: string;
}

interface ToastApi {
  /** Shows a message for 5 s (docs/product.md#toasts: toasts auto-hide after 5 s). */
  show(message: string, tone?: Tone): void;
}

const ToastContext = createContext<ToastApi | null>(null);

const tones: Record<Tone, string> = {
  info: 'border-sky-500/60 bg-slate-900 text-sky-100',
  success: 'border-emerald-500/60 bg-slate-900 text-emerald-100',
  error: 'border-red-500/60 bg-slate-900 text-red-100',
};

export function ToastProvider({
  children,
  durationMs = INTERVALS_MS.toast,
}: {
  children: ReactNode;
  durationMs?: number;
}) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);
  const show = useCallback(
    (message: string, tone: Tone = 'info') => {
      const id = nextId.current++;
      setToasts((list) => [...list, { id, tone, message }]);
      setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), durationMs);
    },
    [durationMs],
  );
  const api = useMemo(() => ({ show }), [show]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div
        aria-live="polite"
        className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2"
      >
        {toasts.map((t) => (
          <div
            key={t.id}
            role={t.tone === 'error' ? 'alert' : 'status'}
            className={cn('pointer-events-auto rounded-lg border px-4 py-3 text-sm shadow-xl', tones[t.tone])}
          >
            {t.message}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast needs a ToastProvider');
  return api;
}
