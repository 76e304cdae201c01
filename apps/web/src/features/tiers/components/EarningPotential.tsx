import { dashboardEarnings, formatNumber, PRODUCT } from '@strm/shared';
import { lazy } from 'react';
import { DeferredChart } from '../../../components/ui/index.ts';
import { useTiers } from '../useTiers.ts';

const EarningChart = lazy(() => import('./EarningChart.tsx'));

/** The chart, with the same figures as a table for screen readers and before the chart loads. */
export function EarningPotential() {
  const tiers = useTiers();
  if (!tiers.data) return null;
  return (
    <div>
      <DeferredChart>
        <div aria-hidden="true" data-testid="earning-chart" className="min-w-0 overflow-hidden">
          <EarningChart tiers={tiers.data} />
        </div>
      </DeferredChart>
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
            {tiers.data.map((t) => (
              <tr key={t.id}>
                <th scope="row">{t.name}</th>
                <td>{formatNumber(dashboardEarnings(t, t.hourly_base_rate).daily)}</td>
                <td>{formatNumber(dashboardEarnings(t, t.hourly_max_rate).daily)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
