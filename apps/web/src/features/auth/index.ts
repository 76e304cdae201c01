// Sign-in with a wallet: the session (AuthRoot loads the wallet adapter and the sign-in sequence on
// demand; useAuth), the top bar and its connect button, the authError banner. Other features import
// only from here.
export { AuthRoot } from './AuthRoot.tsx';
export { AUTH_ERROR_PARAM, type AuthState, type AuthStatus, useAuth } from './context.ts';
export { AuthErrorBanner } from './components/AuthErrorBanner.tsx';
export { ConnectButton } from './components/ConnectButton.tsx';
export { Logo, TopBar } from './components/TopBar.tsx';
export { AUTH_MESSAGES } from './messages.ts';
