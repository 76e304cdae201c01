// The demo platform: a local configuration's stand-in for Twitch/TikTok so a new user can go live and mine
// without an account there. The user toggles "live" through the dev API; nothing leaves the process.
import type { LiveStatus, PlatformAccountRef, PlatformAdapter } from './adapter.ts';
import { normaliseUsername } from './adapter.ts';

type Listener = (status: LiveStatus) => void;

export class DemoPlatform implements PlatformAdapter {
  readonly platform = 'demo' as const;
  private readonly states = new Map<string, LiveStatus>();
  private readonly listeners = new Map<string, Set<Listener>>();

  private key(account: Pick<PlatformAccountRef, 'username'>) {
    return normaliseUsername(account.username);
  }

  async liveStatus(account: PlatformAccountRef): Promise<LiveStatus> {
    return this.states.get(this.key(account)) ?? { live: false, viewers: 0 };
  }

  watch(account: PlatformAccountRef, onChange: Listener): () => void {
    const key = this.key(account);
    const set = this.listeners.get(key) ?? new Set<Listener>();
    this.listeners.set(key, set);
    set.add(onChange);
    return () => {
      set.delete(onChange);
      if (!set.size) this.listeners.delete(key);
    };
  }

  /** The user's toggle (dev API) and the tests' way to go live or offline. */
  setLive(username: string, live: boolean, viewers = 0): LiveStatus {
    const key = normaliseUsername(username);
    const status = { live, viewers: live ? Math.max(0, Math.floor(viewers)) : 0 };
    this.states.set(key, status);
    for (const listener of [...(this.listeners.get(key) ?? [])]) listener(status);
    return status;
  }
}
