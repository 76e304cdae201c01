// What the dashboard's mining sections say (docs/product.md#messages). Server messages come from
// @strm/shared's SERVER_MESSAGES; the on-chain ones from @strm/mining-client.
import { PRODUCT, SERVER_MESSAGES } from '@strm/shared';

export const MINING_MESSAGES = {
  noActiveTier: 'No Active Tier',
  status: { inactive: 'Inactive', ready: 'Ready', mining: 'Mining' },
  insufficientBalance: `Insufficient ${PRODUCT} balance`,
  readingBalance: `Reading your ${PRODUCT} balance...`,
  activateFailed: 'Failed to activate tier',
  deactivateFailed: 'Failed to deactivate tier',
  tierActionFailed: 'Failed to process tier action',
  tierError: 'Error processing tier action',
  programInitFailed: 'Failed to initialize program',
  collectFailed: SERVER_MESSAGES.payoutFailed,
  collected: (amount: string) => `Successfully collected ${amount} ${PRODUCT}!`,
  rateIncreased: 'Rate increased!',
  maxRateReached: 'Max rate reached',
  walletDataFailed: 'Failed to fetch wallet data',
  activate: 'Activate',
  deactivate: 'Deactivate',
  collect: 'Collect Rewards',
  collecting: 'Collecting...',
  processing: 'Processing...',
} as const;
