// The sign-in flow's words (docs/product.md#sign-in-and-screen-precedence, docs/product.md#sign-in-messages).
export const AUTH_MESSAGES = {
  hint: 'Please connect your wallet and sign the message to continue.',
  authenticating: 'Authenticating...',
  loading: 'Loading...',
  nonceFailed: 'Failed to get nonce',
  authFailed: 'Authentication failed',
  phantomNotFound: 'Phantom Wallet not found',
} as const;
