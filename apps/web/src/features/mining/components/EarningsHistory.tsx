// The earnings history chart (recent sessions from mining-stats), loaded on demand with the chart library.
import { formatNumber, type MiningStats, PRODUCT } from '@strm/shared';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export default function EarningsHistory({ sessions }: { sessions: MiningStats['recentSessions'] }) {
  const data = [...sessions].reverse().map((s) => ({
    when: new Date(s.startedAt).toLocaleString('en-US', { dateStyle: 'short', timeStyle: 'short' }),
    mined: s.amountMined,
  }));
  return (
    <div>
      <div aria-hidden="true" data-testid="earnings-history">
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={data} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke="#334155" />
            <XAxis dataKey="when" stroke="#94a3b8" fontSize={11} />
            <YAxis stroke="#94a3b8" fontSize={11} />
            <Tooltip contentStyle={{ background: '#0f172a', border: '1px solid #334155' }} />
            <Bar dataKey="mined" name={`Mined (${PRODUCT})`} fill="#10b981" />
          </BarChart>
        </ResponsiveContainer>
      </div>
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
