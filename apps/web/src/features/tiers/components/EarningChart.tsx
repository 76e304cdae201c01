// Earning Potential by Tier: daily earnings at the base and the max rate over a full day's limit.
// Loaded on demand (React.lazy) so the chart library stays out of the landing page's first load.
import { dashboardEarnings, PRODUCT, type Tier } from '@strm/shared';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export default function EarningChart({ tiers }: { tiers: Tier[] }) {
  const data = tiers.map((t) => ({
    name: t.name,
    base: dashboardEarnings(t, t.hourly_base_rate).daily,
    max: dashboardEarnings(t, t.hourly_max_rate).daily,
  }));
  return (
    <ResponsiveContainer width="100%" height={320}>
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 8 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" stroke="#334155" />
        <XAxis dataKey="name" stroke="#94a3b8" fontSize={12} />
        <YAxis stroke="#94a3b8" fontSize={12} />
        <Tooltip contentStyle={{ background: '#0f172a', border: '1px solid #334155' }} />
        <Legend />
        <Bar dataKey="base" name={`Daily at base rate (${PRODUCT})`} fill="#7c3aed" />
        <Bar dataKey="max" name={`Daily at max rate (${PRODUCT})`} fill="#10b981" />
      </BarChart>
    </ResponsiveContainer>
  );
}
