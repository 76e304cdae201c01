export { DemoPanel, STREAMING_MESSAGES } from './DemoPanel.tsx';
export { PLATFORM_MESSAGES, PlatformPanel } from './PlatformPanel.tsx';
