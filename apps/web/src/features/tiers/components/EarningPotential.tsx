import { PRODUCT } from '@strm/shared';
import { BarChart } from '../../../components/ui/index.ts';
import { formatNumber } from '../../../lib/format.ts';
import { dashboardEarnings } from '../tier-math.ts';
import { useTiers } from '../useTiers.ts';

/**
 * Earning Potential by Tier: daily earnings at the base and the max rate over a full day's limit, as a
 * chart drawn when it scrolls into view, with the same figures as a table for screen readers.
 */
export function EarningPotential() {
  const tiers = useTiers();
  if (!tiers.data) return <div style={{ height: 320 }} />;
  const base = tiers.data.map((t) => dashboardEarnings(t, t.hourly_base_rate).daily);
  const max = tiers.data.map((t) => dashboardEarnings(t, t.hourly_max_rate).daily);
  return (
    <div>
      <BarChart
        testId="earning-chart"
        height={320}
        labels={tiers.data.map((t) => t.name)}
        series={[
          { name: `Daily at base rate (${PRODUCT})`, color: '#7c3aed', values: base },
          { name: `Daily at max rate (${PRODUCT})`, color: '#10b981', values: max },
        ]}
        format={formatNumber}
      />
      <div className="sr-only">
        <table>
          <caption>Daily earnings by tier over a full day's mining</caption>
          <thead>
            <tr>
              <th scope="col">Tier</th>
              <th scope="col">At base rate ({PRODUCT})</th>
              <th scope="col">At max rate ({PRODUCT})</th>
            </tr>
          </thead>
          <tbody>
            {tiers.data.map((t, i) => (
              <tr key={t.id}>
                <th scope="row">{t.name}</th>
                <td>{formatNumber(base[i]!)}</td>
                <td>{formatNumber(max[i]!)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
