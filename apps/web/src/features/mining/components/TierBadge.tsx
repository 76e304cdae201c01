import { Badge } from '../../../components/ui/index.ts';
import { MINING_MESSAGES } from '../messages.ts';

/** The header's tier badge: the active tier, 'No Active Tier', or nothing while the streamer is loading. */
export function TierBadge({ activeTier }: { activeTier: string | null | undefined }) {
  if (activeTier === undefined) return null;
  return activeTier ? (
    <Badge tone="success">{activeTier}</Badge>
  ) : (
    <Badge tone="neutral">{MINING_MESSAGES.noActiveTier}</Badge>
  );
}
