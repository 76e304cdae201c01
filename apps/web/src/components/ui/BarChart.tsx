// A grouped bar chart in plain SVG: a few bars need no chart library (recharts was 107 KB gzip for nine
// pairs of bars). It keeps its height from the first paint (no layout shift) and draws only once it is
// near the viewport and its width is known. It is a picture: callers give screen readers the same figures
// as a table.
import { useEffect, useState } from 'react';
import { once } from '../../lib/once.ts';
import { cn } from './cn.ts';
import { useNearViewport } from './near-viewport.ts';

export interface BarSeries {
  name: string;
  /** A fill colour (CSS). */
  color: string;
  values: number[];
}

/** Up to `count` round axis steps (1, 2 or 5 × 10^n) from 0 covering `max`. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power) as number;
  const ticks: number[] = [];
  for (let t = 0; t < max + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  if (ticks[ticks.length - 1]! < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

// Built when a chart first draws (lib/format.ts says why).
const compact = once(() => new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }));

/** Width of the element once it is within `margin` of the viewport (null before). */
function useWidthInView(margin: string) {
  const { ref, near } = useNearViewport<HTMLDivElement>(margin);
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!near || !el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const resize = new ResizeObserver(measure);
    resize.observe(el);
    return () => resize.disconnect();
  }, [near, ref]);
  return { ref, width };
}

export function BarChart({
  labels,
  series,
  height,
  format = (n) => String(n),
  className,
  testId,
}: {
  /** One label per group of bars, along the x axis. */
  labels: string[];
  series: BarSeries[];
  height: number;
  /** How a bar's value reads in its hover title. */
  format?: (n: number) => string;
  className?: string;
  testId?: string;
}) {
  const { ref, width } = useWidthInView('200px');
  const legend = series.length > 1;
  const chartHeight = height - (legend ? 28 : 0);
  return (
    <div
      ref={ref}
      aria-hidden="true"
      data-testid={testId}
      // The SVG is drawn at the measured width: clipped, it never widens the page while a resize is measured.
      className={cn('min-w-0 overflow-hidden', className)}
      style={{ height }}
    >
      {width !== null && width > 0 && (
        <>
          <Bars labels={labels} series={series} width={width} height={chartHeight} format={format} />
          {legend && (
            <ul className="flex h-7 flex-wrap items-end justify-center gap-x-4 text-xs text-slate-300">
              {series.map((s) => (
                <li key={s.name} className="flex items-center gap-1.5">
                  <span className="inline-block size-2.5 rounded-sm" style={{ background: s.color }} />
                  {s.name}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

function Bars({
  labels,
  series,
  width,
  height,
  format,
}: {
  labels: string[];
  series: BarSeries[];
  width: number;
  height: number;
  format(n: number): string;
}) {
  const ticks = niceTicks(Math.max(0, ...series.flatMap((s) => s.values)));
  const top = ticks[ticks.length - 1] || 1;
  const left = 8 + 7 * Math.max(...ticks.map((t) => compact().format(t).length));
  const pad = { top: 8, right: 8, bottom: 24 };
  const plotW = Math.max(1, width - left - pad.right);
  const plotH = Math.max(1, height - pad.top - pad.bottom);
  const y = (v: number) => pad.top + plotH - (v / top) * plotH;
  const group = plotW / Math.max(1, labels.length);
  const gap = group * 0.2;
  const bar = (group - gap) / Math.max(1, series.length);
  // Labels that would overlap are thinned out (every k-th shown).
  const every = Math.max(1, Math.ceil((labels.length * 56) / plotW));
  return (
    <svg width={width} height={height} role="presentation" className="block">
      {ticks.map((t) => (
        <g key={t}>
          <line x1={left} x2={left + plotW} y1={y(t)} y2={y(t)} stroke="#334155" strokeDasharray="3 3" />
          <text x={left - 6} y={y(t)} dy="0.32em" textAnchor="end" fontSize={11} fill="#94a3b8">
            {compact().format(t)}
          </text>
        </g>
      ))}
      {labels.map((label, i) => {
        const x0 = left + i * group + gap / 2;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: labels may repeat (two sessions in one minute)
          <g key={i}>
            {series.map((s, j) => {
              const v = s.values[i] ?? 0;
              return (
                <rect
                  key={s.name}
                  data-bar=""
                  x={x0 + j * bar}
                  y={y(v)}
                  width={Math.max(1, bar - 1)}
                  height={Math.max(0, pad.top + plotH - y(v))}
                  fill={s.color}
                >
                  <title>{`${label} · ${s.name}: ${format(v)}`}</title>
                </rect>
              );
            })}
            {i % every === 0 && (
              <text
                x={x0 + (group - gap) / 2}
                y={height - 6}
                textAnchor="middle"
                fontSize={11}
                fill="#94a3b8"
              >
                {label}
              </text>
            )}
          </g>
        );
      })}
      <line x1={left} x2={left + plotW} y1={y(0)} y2={y(0)} stroke="#94a3b8" />
    </svg>
  );
}
