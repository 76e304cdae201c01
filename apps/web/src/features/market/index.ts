export { MarketStats } from './MarketStats.tsx';
export { MARKET_MESSAGES, marketPrice, useMarket } from './useMarket.ts';
