// The fault suite's table: a row a fault, then the settings and the acceptance it was judged by.
import { CHECKPOINT_MS, N, RECOVERY_LIMIT_S, UPDATE_MS } from './config.ts';
import type { Result } from './measure.ts';

export function printTable(results: Result[]) {
  const header = [
    'fault',
    'sessions held',
    'updates during (got/due)',
    'longest update gap (s)',
    'updates 10 s after',
    'accrual lost (s)',
    'double payouts',
    'process exits',
    'recovered (s)',
    'notes',
  ];
  const rows = results.map((r) => [
    `${r.ok ? '' : '✗ '}${r.fault}`,
    r.held,
    r.during,
    String(r.gapS),
    r.after,
    String(r.lostS),
    String(r.doublePayouts),
    String(r.exits),
    Number.isNaN(r.recoverS) ? 'not recovered' : String(r.recoverS),
    r.note,
  ]);
  process.stdout.write(`\n| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|\n`);
  for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
  process.stdout.write(
    `\n${N} streamers per fault; updates every ${UPDATE_MS / 1000} s, checkpoints every ${CHECKPOINT_MS / 1000} s; acceptance: 0 exits, 0 unhandled rejections, no session dropped off the killed instance, accrual lost ≤ one checkpoint interval, 0 double payouts, recovered within ${RECOVERY_LIMIT_S} s of the dependency's return\n`,
  );
}
