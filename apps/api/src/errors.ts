// The one error type of the API's domain: a stable code, the message a user may see, and details some
// refusals carry. Services throw it without knowing who asked: `http/error-status.ts` maps each code to an
// HTTP status once, `socket/refusals.ts` to the event a socket is told with once.
import type { ZodError } from 'zod';

export const ERROR_CODES = [
  // Requests and sign-in
  'bad_request',
  'invalid_request',
  'unauthorized',
  'invalid_token',
  'token_expired',
  'invalid_public_key',
  'invalid_signature',
  'invalid_nonce',
  'nonce_expired',
  'nonce_used',
  'forbidden',
  'wallet_mismatch',
  'admin_only',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'too_many_connections',
  'database_unavailable',
  'chain_unavailable',
  'network_congestion',
  'maintenance',
  // Access, registrations, admins, faucet
  'beta_access_required',
  'no_access',
  'not_registered',
  'already_registered',
  'not_admin',
  'configured_admin',
  'not_a_wallet',
  // Platform accounts and their verification
  'account_taken',
  'already_verified',
  'username_required',
  'username_taken',
  'username_mismatch',
  'streamer_live',
  'adjustment_refused',
  'overlay_link_expired',
  'adjustment_limit',
  'adjustment_decided',
  'approver_refused',
  'admin_change_refused',
  'code_required',
  'code_expired',
  'code_mismatch',
  'code_not_in_bio',
  'token_required',
  'exchange_failed',
  'oauth_state_invalid',
  'oauth_state_expired',
  'twitch_not_configured',
  'tiktok_not_configured',
  'tiktok_api_disabled',
  'platform_rate_limited',
  'platform_user_not_found',
  'platform_token_invalid',
  'platform_unavailable',
  // Overlays
  'invalid_overlay_token',
  'read_only_token',
  'card_not_found',
  // Streamer settings
  'timezone_while_live',
  'timezone_limit',
  'own_pending_reward',
  'adjustment_above_max',
  // Tier actions
  'tier_tx_used',
  'tier_tx_invalid',
  'tier_not_active',
  // Rewards
  'collect_busy',
  'collect_while_live',
  'nothing_to_collect',
  'collect_signature_used',
  'collect_signature_invalid',
  'collect_signature_old',
  'treasury_empty',
  'payout_failed',
  'payout_unconfirmed',
  // Mining sessions (start-stream, join-room, increase-rate, a request forwarded to another instance)
  'platform_not_available',
  'platform_not_verified',
  'platform_connect_failed',
  'tier_read_failed',
  'no_tier',
  'tier_not_found',
  'not_live',
  'twitch_not_live',
  'youtube_not_live',
  'kick_not_live',
  'platform_not_configured',
  'platform_quota_exhausted',
  'session_invalid',
  'already_mining',
  'daily_limit_reached',
  'not_mining',
  'rate_not_due',
  'owner_unreachable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDetails {
  /** Sent as Retry-After (e.g. when a platform limits our requests). */
  retryAfterSeconds?: number;
  /** The day's mining so far, told with dailyLimitReached. */
  currentDailyDuration?: number;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }
}

/** The first issue of a zod error as one line a user can read. */
export function validationMessage(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const path = issue.path.join('.');
  // A message that already names its field ("Platform username is required") is shown as it is.
  const field = String(issue.path.at(-1) ?? '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return path && !issue.message.toLowerCase().includes(field) ? `${path}: ${issue.message}` : issue.message;
}
