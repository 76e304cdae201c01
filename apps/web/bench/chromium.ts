// bench:web needs Debian's Chromium (or CHROMIUM_PATH). Missing, it is installed as `./run test` does
// (ensure_chromium in the root `run` script: root and apt-get), or the bench says in one line how to get it,
// instead of stopping with Playwright's stack trace ("executable doesn't exist").
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const hasAptGet = () => spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;

/** True when Chromium is there (after installing it, where this process may); else prints how and is false. */
export function ensureChromium(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (!process.env.CHROMIUM_PATH && process.getuid?.() === 0 && hasAptGet()) {
    console.log("Installing Debian's chromium for bench:web…");
    const install = spawnSync(
      'sh',
      [
        '-c',
        'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null',
      ],
      { stdio: 'inherit' },
    );
    if (install.status === 0 && existsSync(CHROMIUM)) return true;
  }
  console.error(
    `bench:web needs Chromium at ${CHROMIUM}: install it with \`apt-get install chromium\` (Debian, as root), or set CHROMIUM_PATH.`,
  );
  return false;
}
