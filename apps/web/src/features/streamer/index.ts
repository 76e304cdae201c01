export { useIsAdmin, useStreamer } from './useStreamer.ts';
