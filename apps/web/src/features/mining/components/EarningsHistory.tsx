// The earnings history chart (recent sessions from mining-stats), with the figures as a table for screen
// readers.
import { type MiningStats, PRODUCT } from '@strm/shared';
import { BarChart } from '../../../components/ui/index.ts';
import { formatNumber } from '../../../lib/format.ts';

export function EarningsHistory({ sessions }: { sessions: MiningStats['recentSessions'] }) {
  const data = [...sessions].reverse().map((s) => ({
    when: new Date(s.startedAt).toLocaleString('en-US', { dateStyle: 'short', timeStyle: 'short' }),
    mined: s.amountMined,
  }));
  return (
    <div>
      <BarChart
        testId="earnings-history"
        height={220}
        labels={data.map((d) => d.when)}
        series={[{ name: `Mined (${PRODUCT})`, color: '#10b981', values: data.map((d) => d.mined) }]}
        format={formatNumber}
      />
      <div className="sr-only">
        <table>
          <caption>Recent mining sessions</caption>
          <tbody>
            {data.map((d, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: sessions have no id here and never reorder
              <tr key={i}>
                <th scope="row">{d.when}</th>
                <td>
                  {formatNumber(d.mined)} {PRODUCT}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
