// deploy/grafana/strm.json's panels drawn from a real Prometheus's query_range answers, laid out on Grafana's
// grid (24 columns, 30 px a row unit) with each target's legendFormat and the panel's unit, as one HTML page
// that dashboard.test.ts screenshots in Chromium for docs/operations.md#dashboard. No chart library: each
// series is an SVG polyline of the values Prometheus returned.

export interface Panel {
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  fieldConfig?: { defaults?: { unit?: string } };
  targets: Array<{ expr: string; legendFormat?: string }>;
}

export interface RangeSeries {
  metric: Record<string, string>;
  values: Array<[number, string]>;
}

/** One panel's answers: per target, the series of its query_range. */
export type PanelData = RangeSeries[][];

const COLORS = ['#73bf69', '#f2cc0c', '#5794f2', '#ff780a', '#f2495c', '#b877d9', '#8ab8ff', '#ff9830'];
const COLUMN_PX = 60;
const ROW_PX = 30;

function html(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** Grafana's `{{label}}` legend template. */
export function legend(format: string | undefined, metric: Record<string, string>): string {
  if (!format) return JSON.stringify(metric);
  return format.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => metric[name] ?? '');
}

/** A value in the panel's unit, as Grafana would print it on an axis. */
export function formatValue(value: number, unit: string | undefined): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '-∞';
  const short = (v: number) => {
    const abs = Math.abs(v);
    for (const [limit, suffix] of [
      [1e12, ' T'],
      [1e9, ' B'],
      [1e6, ' M'],
      [1e3, ' K'],
    ] as const) {
      if (abs >= limit) return `${+(v / limit).toPrecision(3)}${suffix}`;
    }
    return `${+v.toPrecision(3)}`;
  };
  switch (unit) {
    case 's':
      if (Math.abs(value) < 1 && value !== 0) return `${+(value * 1000).toPrecision(3)} ms`;
      return `${+value.toPrecision(3)} s`;
    case 'd':
      return `${short(value)} days`;
    case 'reqps':
      return `${+value.toPrecision(3)} req/s`;
    default:
      return short(value);
  }
}

function clock(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(11, 19);
}

function chart(panel: Panel, data: PanelData, from: number, to: number, width: number, height: number) {
  const unit = panel.fieldConfig?.defaults?.unit;
  const lines = data.flatMap((series, t) =>
    series.map((s) => ({
      label: legend(panel.targets[t]?.legendFormat, s.metric),
      last: s.values.length ? Number(s.values.at(-1)![1]) : undefined,
      // Drawn: the finite values (+Inf, as days left with no payouts, is a gap; the legend says ∞).
      points: s.values.map(([at, v]) => [at, Number(v)] as const).filter(([, v]) => Number.isFinite(v)),
    })),
  );
  const values = lines.flatMap((l) => l.points.map(([, v]) => v));
  let low = Math.min(0, ...values);
  let high = Math.max(...values, 0);
  if (high === low) high = low + 1;
  const pad = (high - low) * 0.08;
  high += pad;
  if (low < 0) low -= pad;
  const left = 84;
  const bottom = 18;
  const plotW = width - left - 8;
  const plotH = height - bottom - 6;
  const x = (at: number) => left + ((at - from) / Math.max(1, to - from)) * plotW;
  const y = (v: number) => 6 + plotH - ((v - low) / (high - low)) * plotH;
  const grid = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const v = low + (high - low) * f;
    return `<line x1="${left}" x2="${left + plotW}" y1="${y(v)}" y2="${y(v)}" class="grid"/><text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${html(formatValue(v, unit))}</text>`;
  });
  const ticks = [0, 0.5, 1].map((f) => {
    const at = from + (to - from) * f;
    const anchor = f === 0 ? 'start' : f === 1 ? 'end' : 'middle';
    return `<text x="${x(at)}" y="${height - 4}" text-anchor="${anchor}">${clock(at)}</text>`;
  });
  const paths = lines.map((l, i) => {
    const color = COLORS[i % COLORS.length];
    if (l.points.length === 1) {
      const [at, v] = l.points[0]!;
      return `<circle cx="${x(at)}" cy="${y(v)}" r="2.5" fill="${color}" class="series"/>`;
    }
    const pts = l.points.map(([at, v]) => `${x(at).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    return `<polyline points="${pts}" stroke="${color}" class="series"/>`;
  });
  const legendItems = lines.map((l, i) => {
    const last = l.last;
    const shown = last === undefined ? '' : ` ${formatValue(last, unit)}`;
    return `<span><i style="background:${COLORS[i % COLORS.length]}"></i>${html(l.label)}<b>${html(shown)}</b></span>`;
  });
  return {
    series: lines.filter((l) => l.last !== undefined).length,
    svg: `<svg width="${width}" height="${height}">${grid.join('')}${ticks.join('')}${paths.join('')}</svg>`,
    legend: legendItems.join(''),
  };
}

/** The page: every panel at its grid position, the time range and where the figures came from in the title. */
export function renderDashboard(
  title: string,
  panels: Panel[],
  data: PanelData[],
  range: { from: number; to: number; source: string },
): string {
  const cells = panels.map((panel, i) => {
    const { x, y, w, h } = panel.gridPos;
    const width = w * COLUMN_PX - 8;
    const height = h * ROW_PX - 8;
    const drawn = chart(panel, data[i] ?? [], range.from, range.to, width - 16, height - 64);
    return `<section class="panel" data-series="${drawn.series}" style="left:${x * COLUMN_PX}px;top:${y * ROW_PX + 44}px;width:${width}px;height:${height}px"><h2>${html(panel.title)}</h2>${drawn.svg}<div class="legend">${drawn.legend}</div></section>`;
  });
  const bottom = Math.max(...panels.map((p) => p.gridPos.y + p.gridPos.h)) * ROW_PX + 52;
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body{margin:0;background:#111217;color:#ccccdc;font:12px Inter,"DejaVu Sans",sans-serif;width:${24 * COLUMN_PX}px;height:${bottom}px;position:relative}
header{position:absolute;left:8px;top:10px;font-size:16px;color:#fff}header small{color:#8e8e9e;font-size:12px;margin-left:12px}
.panel{position:absolute;margin:4px;background:#181b1f;border:1px solid #2c3235;border-radius:2px;padding:6px 8px;box-sizing:border-box;overflow:hidden}
h2{margin:0 0 4px;font-size:13px;font-weight:500;color:#fff}
svg text{fill:#8e8e9e;font-size:10px}.grid{stroke:#2c3235}.series{fill:none;stroke-width:1.6}circle.series{stroke:none}
.legend{display:flex;flex-wrap:wrap;gap:2px 12px;margin-top:2px}.legend i{display:inline-block;width:12px;height:3px;margin-right:5px;vertical-align:middle}.legend b{font-weight:500;color:#fff;margin-left:4px}
</style></head><body><header>${html(title)}<small>${clock(range.from)} to ${clock(range.to)} UTC · ${html(range.source)}</small></header>${cells.join('')}</body></html>`;
}
