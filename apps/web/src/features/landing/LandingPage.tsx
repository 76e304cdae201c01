import { bestValueTier, formatNumber, PRODUCT } from '@strm/shared';
import { Badge, Card } from '../../components/ui/index.ts';
import { AuthErrorBanner, TopBar } from '../auth/index.ts';
import { tiersErrorMessage, useTiers } from '../tiers/useTiers.ts';

export function LandingPage() {
  const tiers = useTiers();
  const best = tiers.data ? bestValueTier(tiers.data) : undefined;
  return (
    <>
      <TopBar />
      <AuthErrorBanner />
      <main className="mx-auto flex max-w-5xl flex-col gap-8 px-4 py-8">
        <section className="py-8">
          <h1 className="text-4xl font-bold text-white">Earn {PRODUCT} while you stream</h1>
          <p className="mt-2 text-slate-400">
            Stake {PRODUCT} to activate a mining tier, go live on TikTok or Twitch, and collect your rewards.
          </p>
        </section>
        <section aria-labelledby="tiers-title">
          <h2 id="tiers-title" className="mb-4 text-2xl font-semibold text-white">
            Mining Tiers
          </h2>
          {tiers.isPending && <p className="text-slate-400">Loading tiers...</p>}
          {tiers.isError && <p className="text-red-400">{tiersErrorMessage(tiers.error)}</p>}
          {tiers.data && (
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {tiers.data.map((tier) => (
                <Card as="article" key={tier.id}>
                  <h3 className="flex items-center gap-2 font-semibold text-white">
                    {tier.name}
                    {tier === best && <Badge tone="success">Best Value</Badge>}
                  </h3>
                  <p className="mt-2">
                    {formatNumber(tier.deposit_requirement)} {PRODUCT}
                  </p>
                  <p className="text-sm text-slate-400">
                    {formatNumber(tier.hourly_base_rate)} – {formatNumber(tier.hourly_max_rate)} {PRODUCT}/h
                  </p>
                </Card>
              ))}
            </div>
          )}
        </section>
      </main>
    </>
  );
}
