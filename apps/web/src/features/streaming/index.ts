export { DemoPanel, STREAMING_MESSAGES } from './DemoPanel.tsx';
