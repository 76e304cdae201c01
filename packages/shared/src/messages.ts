// Messages the server sends that the client shows as they are. Client-only strings live in the web
// feature that shows them.
export const SERVER_MESSAGES = {
  dailyLimitReached: 'Daily mining limit reached. Please try again after the cooldown period.',
  maintenanceDefault: 'We are performing scheduled maintenance. Please check back soon.',
  timezoneWhileLive: 'Cannot change timezone while mining is active',
  timezoneLimit: 'Cannot change timezone anymore!',
  deactivateWhileLive: 'Cannot deactivate tier while mining is active',
  oneTierOnly: 'Only 1 tier can be active at a time',
  tierNotFound: 'Tier not found',
  tiersNotFound: 'Tiers not found',
} as const;
