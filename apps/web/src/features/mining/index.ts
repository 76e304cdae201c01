export { miningStatsQuery, useMiningStats } from './api.ts';
export { AccountPanel, miningStatus } from './components/AccountPanel.tsx';
export { LiveStats } from './components/LiveStats.tsx';
export { MiningControls, tierActionBlock } from './components/MiningControls.tsx';
export { canCollect, RewardsPanel } from './components/RewardsPanel.tsx';
export { TierBadge } from './components/TierBadge.tsx';
export { MINING_MESSAGES } from './messages.ts';
export { useWalletTransactions } from './useWalletTransactions.ts';
