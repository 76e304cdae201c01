// The overlay's picture in plain DOM (no framework: the overlay page loads on every scene switch and stays
// small). The dashboard's preview mounts the same view. Sizes are in em of the root element, so one view
// fits a 1920x1080 source, a smaller one, and the preview.
import { PRODUCT as PRODUCT_WORD } from '@strm/shared/constants';
import type { OverlayTheme } from '@strm/shared/overlay-constants';
import { formatAmount, formatRate, formatSpan } from './format.ts';
import { OVERLAY_VIEW_TEXT as T } from './messages.ts';
import { dailyLeft, type ShownState, sessionAmount, untilRateIncrease } from './state.ts';

type Field = 'status' | 'amount' | 'rate' | 'tier' | 'daily' | 'next' | 'balance';

/** Which figures each theme shows. */
const THEME_FIELDS: Record<OverlayTheme, Field[]> = {
  'corner-badge': ['status', 'amount', 'rate', 'tier', 'daily', 'next', 'balance'],
  'lower-third': ['status', 'amount', 'rate', 'tier', 'daily', 'next', 'balance'],
  'compact-counter': ['status', 'amount', 'rate'],
};

const LABELS: Partial<Record<Field, string>> = {
  rate: T.rate,
  tier: T.tier,
  daily: T.dailyLeft,
  next: T.nextIncrease,
  balance: T.pending,
};

function el(tag: string, className: string, testId?: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  if (testId) node.dataset.testid = testId;
  return node;
}

export interface OverlayView {
  /** The state to show (null: a message instead, e.g. connecting or revoked). */
  show(shown: ShownState | null, message?: string): void;
  /** Redraws the moving figures (the amount counting up, the time left) for `now` (performance.now()). */
  tick(now: number): void;
}

export function createOverlayView(root: HTMLElement): OverlayView {
  let shown: ShownState | null = null;
  let theme: OverlayTheme | null = null;
  let fields = new Map<Field, HTMLElement>();
  /** The highest amount shown in this session: the count never goes backwards between updates. */
  let floor = { seconds: -1, amount: 0 };

  function build(next: OverlayTheme) {
    theme = next;
    fields = new Map();
    const box = el('div', `ov ov-${next}`, 'overlay');
    const head = el('div', 'ov-head');
    const status = el('span', 'ov-status', 'overlay-status');
    head.append(status);
    fields.set('status', status);
    const amount = el('div', 'ov-amount');
    const value = el('span', 'ov-amount-value', 'overlay-amount');
    const unit = el('span', 'ov-unit');
    unit.textContent = PRODUCT_WORD;
    fields.set('amount', value);
    if (next !== 'compact-counter') {
      const label = el('span', 'ov-label');
      label.textContent = T.thisStream;
      amount.append(label);
    }
    amount.append(value, unit);
    box.append(head, amount);
    const list = el('dl', 'ov-list');
    for (const field of THEME_FIELDS[next]) {
      if (field === 'status' || field === 'amount') continue;
      const row = el('div', `ov-row ov-row-${field}`);
      const dt = el('dt', 'ov-label');
      dt.textContent = LABELS[field] ?? '';
      const dd = el('dd', 'ov-value', `overlay-${field}`);
      row.append(dt, dd);
      list.append(row);
      fields.set(field, dd);
    }
    box.append(list);
    root.replaceChildren(box);
  }

  function set(field: Field, text: string) {
    const node = fields.get(field);
    if (node && node.textContent !== text) node.textContent = text;
  }

  function tick(now: number) {
    if (!shown) return;
    const { state } = shown;
    let amount = sessionAmount(shown, now);
    if (state.status === 'mining' && state.sessionSeconds >= floor.seconds)
      amount = Math.max(amount, floor.amount);
    floor =
      state.status === 'mining' ? { seconds: state.sessionSeconds, amount } : { seconds: -1, amount: 0 };
    set('amount', formatAmount(amount));
    set('daily', formatSpan(dailyLeft(shown, now)));
    const next = untilRateIncrease(state, Date.now());
    set('next', next == null ? T.maxRate : formatSpan(next));
  }

  return {
    show(next, message) {
      shown = next;
      if (!next) {
        theme = null;
        const note = el('div', 'ov ov-message', 'overlay-message');
        note.textContent = message ?? T.connecting;
        root.replaceChildren(note);
        return;
      }
      const { state } = next;
      if (state.theme !== theme) build(state.theme);
      // The server's figures as last received (what the browser tests wait for; the amount shown moves on).
      root.dataset.sessionSeconds = String(state.sessionSeconds);
      const status = fields.get('status');
      if (status) status.dataset.state = state.status;
      set('status', state.status === 'mining' ? T.mining : T.ready);
      set('rate', `${formatRate(state.miningRate)} ${PRODUCT_WORD}/h`);
      set('tier', state.tier ?? T.noTier);
      const balance = fields.get('balance');
      if (balance?.parentElement) {
        balance.parentElement.hidden = state.pendingReward == null;
        set('balance', `${formatAmount(state.pendingReward ?? 0)} ${PRODUCT_WORD}`);
      }
      tick(next.receivedAt);
    },
    tick,
  };
}
