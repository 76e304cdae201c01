// Every unit test file's setup (vite.config.ts, test.setupFiles).
import { configure } from '@testing-library/react';

// A bound for a wait that will never succeed, not a speed check: testing-library's default of 1 s for
// findBy… and waitFor is less than a render and a faked request take on a loaded 2-core machine (the flake
// hunt's load), where PlatformPanel and OverlayPanel timed out in a full run at load 28.
configure({ asyncUtilTimeout: 10_000 });
