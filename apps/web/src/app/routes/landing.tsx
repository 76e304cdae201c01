// The landing page of route / (no wallet signed in): hero, market statistics, the calculator, the mining
// tiers, the earning potential chart and the beta's Connect. The tier cards and the chart with its table,
// below the fold on every screen, render when they come near the viewport or at the first key press
// (components/ui/WhenNear.tsx); their headings are there from the start.
import { PRODUCT } from '@strm/shared';
import { memo } from 'react';
import { Card, CardTitle, WhenNear } from '../../components/ui/index.ts';
import { COMMUNITY_LINKS, LEGAL_LINKS } from '../../config.ts';
import { AuthErrorBanner, ConnectButton, TopBar } from '../../features/auth/index.ts';
import { MiningCalculator } from '../../features/calculator/index.ts';
import { useClientConfig } from '../../features/client-config/index.ts';
import { MarketStats, marketPrice, useMarket } from '../../features/market/index.ts';
import { EarningPotential, TierCards } from '../../features/tiers/index.ts';

export const LANDING_MESSAGES = {
  title: `Earn ${PRODUCT} while you stream`,
  dexChart: 'DEX Chart',
  explorer: 'Token Explorer',
  tiers: 'Mining Tiers',
  earning: 'Earning Potential by Tier',
  joinTitle: 'Join the Beta',
  joinButton: 'Apply for the Beta',
  joinText: `The ${PRODUCT} Mining Platform is invite-only while in beta. Connect your wallet and register: selected streamers are admitted.`,
} as const;

/** The platforms a streamer can go live on here: TikTok and Twitch, then YouTube and Kick where configured. */
export function landingSubtitle(oauthPlatforms?: { youtube: boolean; kick: boolean }): string {
  const names = ['TikTok', 'Twitch'];
  if (oauthPlatforms?.youtube) names.push('YouTube');
  if (oauthPlatforms?.kick) names.push('Kick');
  const platforms = `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  return `Stake ${PRODUCT} to activate a mining tier, go live on ${platforms}, and collect your rewards.`;
}

/** The hero's line under the title, naming the platforms this deployment serves once its config arrives. */
function HeroSubtitle() {
  const oauthPlatforms = useClientConfig().data?.oauthPlatforms;
  return <p className="mt-2 max-w-2xl text-slate-300">{landingSubtitle(oauthPlatforms)}</p>;
}

/** The hero's links, as this deployment configures them (re-rendered alone when they arrive). */
function HeroLinks() {
  const links = useClientConfig().data?.links;
  return (
    <div className="mt-4 flex flex-wrap gap-4">
      {links?.dexChart && (
        <a href={links.dexChart} target="_blank" rel="noreferrer">
          {LANDING_MESSAGES.dexChart}
        </a>
      )}
      {links?.tokenExplorer && (
        <a href={links.tokenExplorer} target="_blank" rel="noreferrer">
          {LANDING_MESSAGES.explorer}
        </a>
      )}
    </div>
  );
}

/** The calculator from the market price (re-rendered alone when it arrives, and every 30 s after). */
function LandingCalculator() {
  const market = useMarket();
  return <MiningCalculator marketPrice={marketPrice(market.data)} />;
}

/**
 * Memoised: it takes no props, and the route above re-renders at each step of a sign-in (its status); only
 * what shows the status (the Connect buttons, the error banner) re-renders then, not the whole page. It reads
 * no query itself: the answers that arrive as it loads re-render only the parts that show them.
 */
export const LandingPage = memo(function LandingPage() {
  return (
    <>
      <TopBar />
      <AuthErrorBanner />
      <main className="mx-auto flex min-w-0 max-w-5xl flex-col gap-8 px-4 py-8">
        <section className="py-6" aria-labelledby="hero-title">
          <h1 id="hero-title" className="text-3xl font-bold text-white sm:text-4xl">
            {LANDING_MESSAGES.title}
          </h1>
          <HeroSubtitle />
          <HeroLinks />
        </section>
        <MarketStats />
        <LandingCalculator />
        <section aria-labelledby="tiers-title">
          <h2 id="tiers-title" className="mb-4 text-2xl font-semibold text-white">
            {LANDING_MESSAGES.tiers}
          </h2>
          {/* Nine cards, about as tall as one to three columns make them (the same breakpoints). */}
          <WhenNear className="h-[1658px] sm:h-[914px] lg:h-[542px]">
            <TierCards />
          </WhenNear>
        </section>
        <Card as="section" aria-labelledby="earning-title">
          <CardTitle id="earning-title">{LANDING_MESSAGES.earning}</CardTitle>
          <WhenNear className="h-80">
            <EarningPotential />
          </WhenNear>
        </Card>
        <Card as="section" aria-labelledby="join-title" className="text-center">
          <CardTitle id="join-title">{LANDING_MESSAGES.joinTitle}</CardTitle>
          <p className="mx-auto mb-4 max-w-xl text-slate-300">{LANDING_MESSAGES.joinText}</p>
          <div className="flex justify-center">
            <ConnectButton label={LANDING_MESSAGES.joinButton} />
          </div>
        </Card>
      </main>
      <footer className="border-t border-slate-800">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-4 px-4 py-6 text-sm">
          <p className="text-slate-400">© {PRODUCT} Mining Platform</p>
          <nav aria-label="Community and legal" className="flex flex-wrap gap-4">
            {[...COMMUNITY_LINKS, ...LEGAL_LINKS].map((l) => (
              <a key={l.label} href={l.href}>
                {l.label}
              </a>
            ))}
          </nav>
        </div>
      </footer>
    </>
  );
});
