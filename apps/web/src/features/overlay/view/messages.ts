// Every word the overlay shows (on stream, to the viewers).
export const OVERLAY_VIEW_TEXT = {
  mining: 'Mining',
  ready: 'Ready',
  thisStream: 'This stream',
  rate: 'Rate',
  tier: 'Tier',
  noTier: 'No tier',
  dailyLeft: 'Daily time left',
  nextIncrease: 'Next rate increase',
  maxRate: 'Max rate',
  pending: 'Pending',
  connecting: 'Connecting…',
  noLink: 'This overlay link is incomplete. Copy it again from your dashboard.',
} as const;
