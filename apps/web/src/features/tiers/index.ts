export { EarningPotential } from './components/EarningPotential.tsx';
export { BEST_VALUE, TierCards } from './components/TierCards.tsx';
export { bestValueTier, calculatorEarnings, dashboardEarnings } from './tier-math.ts';
export { LOADING_TIERS, TIERS_FAILED, TIERS_NOT_FOUND, tiersErrorMessage, useTiers } from './useTiers.ts';
