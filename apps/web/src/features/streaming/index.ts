export { platformsQuery } from './api.ts';
export { PANEL_MESSAGES, SocketErrorBanner } from './ConnectPanel.tsx';
export { DemoPanel, STREAMING_MESSAGES } from './DemoPanel.tsx';
export { PLATFORM_MESSAGES, PlatformPanel } from './PlatformPanel.tsx';
export { OAUTH_PANEL_MESSAGES, OAuthPlatformPanel } from './OAuthPlatformPanel.tsx';
