// The product gives no rule for a rate that rises with engagement. This is the bounded rule, off by default:
// +1 % per `viewersPerPercent` viewers reported by the platform when the session starts, at most
// `maxBoostPercent`, applied before the tier's max cap and fixed for the session like the rate itself.
// It is off by default because viewer counts come from the platforms and are easy to inflate.
export interface EngagementOptions {
  maxBoostPercent: number;
  viewersPerPercent: number;
}

export const ENGAGEMENT_OFF: EngagementOptions = { maxBoostPercent: 0, viewersPerPercent: 10 };

/** The boost in thousandths (‰) for the viewers at the session's start. */
export function engagementBoostPermille(options: EngagementOptions, viewers: number): number {
  if (options.maxBoostPercent <= 0 || options.viewersPerPercent <= 0 || viewers <= 0) return 0;
  const percent = Math.min(options.maxBoostPercent, Math.floor(viewers / options.viewersPerPercent));
  return percent * 10;
}
