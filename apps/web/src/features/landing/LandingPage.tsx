import { bestValueTier, DASHBOARD_VERSION, formatNumber, PRODUCT } from '@strm/shared';
import { tiersErrorMessage, useTiers } from '../tiers/useTiers.ts';

export function LandingPage() {
  const tiers = useTiers();
  const best = tiers.data ? bestValueTier(tiers.data) : undefined;
  return (
    <>
      <header className="topbar">
        <strong>
          {PRODUCT} <span className="badge">{DASHBOARD_VERSION}</span>
        </strong>
      </header>
      <main className="page">
        <section className="hero">
          <h1>Earn {PRODUCT} while you stream</h1>
          <p className="muted">
            Stake {PRODUCT} to activate a mining tier, go live on TikTok or Twitch, and collect your rewards.
          </p>
        </section>
        <section>
          <h2>Mining Tiers</h2>
          {tiers.isPending && <p className="muted">Loading tiers...</p>}
          {tiers.isError && <p className="error">{tiersErrorMessage(tiers.error)}</p>}
          {tiers.data && (
            <div className="grid">
              {tiers.data.map((tier) => (
                <article className="card" key={tier.id}>
                  <h3>
                    {tier.name}
                    {tier === best && <span className="badge">Best Value</span>}
                  </h3>
                  <p>
                    {formatNumber(tier.deposit_requirement)} {PRODUCT}
                  </p>
                  <p className="muted">
                    {formatNumber(tier.hourly_base_rate)} – {formatNumber(tier.hourly_max_rate)} {PRODUCT}/h
                  </p>
                </article>
              ))}
            </div>
          )}
        </section>
      </main>
    </>
  );
}
