// Spec strings of the sign-in flow (§2, §5, §8).
export const AUTH_MESSAGES = {
  hint: 'Please connect your wallet and sign the message to continue.',
  authenticating: 'Authenticating...',
  loading: 'Loading...',
  nonceFailed: 'Failed to get nonce',
  authFailed: 'Authentication failed',
  phantomNotFound: 'Phantom Wallet not found',
} as const;
