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
  // Market data (GET /market).
  marketFetchFailed: 'Failed to fetch market data',
  marketInvalidFormat: 'Invalid response format',
  // Streaming, mining and rewards (sent by the socket server).
  approachingDailyLimit: 'Approaching daily limit',
  dailyLimitTomorrow: 'Daily limit reached. Mining will resume tomorrow',
  rateIncreased: 'Your Rate Has Increased, Please Re-Connect in order to mine with your new rate!',
  rateNotDue: 'Your rate cannot increase yet',
  alreadyMining: 'You are already mining in another tab or on another platform',
  notMining: 'You are not mining',
  collectWhileLive: 'Cannot collect rewards while mining is active',
  nothingToCollect: 'No rewards to collect',
  collectSignatureUsed: 'This transaction has already been used to collect rewards',
  collectSignatureInvalid: 'The collect transaction must be a confirmed transfer from your wallet to itself',
  collectSignatureOld: 'The collect transaction is more than 10 minutes old; please try again',
  treasuryEmpty: 'Rewards cannot be paid right now; your pending reward is kept. Please try again later.',
  payoutFailed: 'Failed to collect rewards',
  /** The payout was sent (or may have been) but is not confirmed yet: the reconciler settles it. */
  payoutUnconfirmed:
    'Your payout is not confirmed yet. If it does not land, your pending reward is restored within a few minutes.',
  collectBusy: 'Too many collects at once; your pending reward is kept. Please try again in a minute.',
  tierTxInvalid: 'The transaction is not a confirmed tier action signed by your wallet',
  tierTxUsed: 'This transaction has already been processed',
  tierNotActive: 'Your tier is not active on chain',
  walletMismatch: 'This event names another wallet than the signed-in one',
  /** A socket handler's unexpected failure; also the client's fallback for an error event without a message. */
  socketError: 'An error occurred',
  maintenanceActive: 'We are Down for Maintenance!',
  tiktokNotVerified: 'Please verify your TikTok account first',
  twitchNotVerified: 'Please verify your Twitch account first',
  demoNotVerified: 'Please create your demo account first',
  tiktokNoTier: 'You must activate a mining tier before connecting to TikTok Live',
  twitchNoTier: 'You must activate a mining tier before connecting to Twitch Live',
  demoNoTier: 'You must activate a mining tier before connecting to Demo Live',
  notLive: 'Your stream is not live',
  /** A request that needs the database while it is away (HTTP 503 with Retry-After, or a socket refusal). */
  databaseUnavailable: 'The server cannot reach its database right now. Please try again in a few seconds.',
  /** A session ended while the database was away: its credit is written when it is back. */
  creditDelayed: 'Mining stopped. Your rewards are kept and will be credited in a moment.',
  twitchNotLive: 'Your Twitch stream is not live. Go live on Twitch, then connect again.',
  // Platform verification (REST); the quoted ones are docs/product.md#streaming-and-rewards'.
  tiktokUsernameRequired: 'Please enter your TikTok username.',
  twitchUsernameRequired: 'Please enter your Twitch username.',
  twitchAuthorizeFirst: 'Please authorize with Twitch first',
  verificationFailed: 'Verification failed',
  exchangeFailed: 'Failed to exchange code for token',
  tiktokAccountTaken: 'This TikTok account is already verified by another wallet',
  twitchAccountTaken: 'This Twitch account is already verified by another wallet',
  tiktokAlreadyVerified: 'Your TikTok account is already verified',
  generateCodeFirst: 'Please generate a verification code first',
  codeExpired: 'Your verification code has expired. Please generate a new code.',
  codeMismatch: 'This is not the verification code generated for your account. Please generate a new code.',
  codeNotInBio:
    'The verification code was not found in your TikTok bio. Save it in your bio, then verify again.',
  twitchVerifiedByAuthorizing: 'Twitch accounts are verified by authorizing with Twitch',
  usernameWhileLive: 'Cannot change your username while mining is active',
  // A live session that stops being valid (docs/engine.md#a-sessions-life): what the user is told.
  tierReadFailed: 'Could not read your tier from the chain; please try again',
  accountChangedWhileLive:
    'Mining stopped: the platform account this session ran on changed or is no longer verified',
  liveUnconfirmed:
    'Mining stopped: the platform could not confirm that your stream is live. Connect again when it is reachable.',
  tiktokApiDisabled: 'TikTok sign-in is not enabled on this server',
  oauthStateInvalid:
    'This authorization was not started from your dashboard or was already used. Please authorize again.',
  oauthStateExpired: 'This authorization took too long and has expired. Please authorize again.',
  tiktokVerified: 'Your TikTok account is verified',
  twitchVerified: 'Your Twitch account is verified',
  // YouTube Live and Kick: the same states and messages as Twitch, with the platform's name.
  youtubeNotVerified: 'Please verify your YouTube account first',
  kickNotVerified: 'Please verify your Kick account first',
  youtubeNoTier: 'You must activate a mining tier before connecting to YouTube Live',
  kickNoTier: 'You must activate a mining tier before connecting to Kick Live',
  youtubeNotLive: 'Your YouTube stream is not live. Go live on YouTube, then connect again.',
  kickNotLive: 'Your Kick stream is not live. Go live on Kick, then connect again.',
  youtubeAccountTaken: 'This YouTube account is already verified by another wallet',
  kickAccountTaken: 'This Kick account is already verified by another wallet',
  youtubeVerified: 'Your YouTube account is verified',
  kickVerified: 'Your Kick account is verified',
  youtubeNotConfigured: 'YouTube is not configured on this server',
  kickNotConfigured: 'Kick is not configured on this server',
  youtubeVerifiedByAuthorizing: 'YouTube accounts are verified by connecting with YouTube',
  kickVerifiedByAuthorizing: 'Kick accounts are verified by connecting with Kick',
  youtubeQuotaExhausted:
    "YouTube's daily API quota for this server is used up, so whether you are live cannot be checked now. Live sessions end; new ones can start when the quota resets (midnight Pacific time).",
  youtubeWalletBudgetSpent:
    'You have asked YouTube whether you are live too often today. Try again after midnight Pacific time.',
  // Access and abuse limits (REST 403/429 bodies, socket connect_error data and error events).
  betaAccessRequired: 'This wallet does not have beta access',
  accessRevoked: 'Your beta access has been revoked',
  sessionExpired: 'Session expired, please sign in again',
  tooManyRequests: 'Too many requests, please slow down',
  tooManyConnections: 'Too many connections for this wallet. Close another tab and try again.',
  tooManyConnectionAttempts: 'Too many connection attempts, please wait a moment',
} as const;
