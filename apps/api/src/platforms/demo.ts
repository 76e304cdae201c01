// The demo platform: a local configuration's stand-in for Twitch/TikTok so a new user can go live and mine
// without an account there. The user toggles "live" through the dev API; nothing leaves the machine. Like a
// real platform's, its state is not the API's memory: the server keeps who is live in a file of its data
// directory, so a restarted (or crashed) API finds its streamers still live and resumes their sessions.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { LiveStatus, PlatformAccountRef, PlatformAdapter } from './adapter.ts';
import { normaliseUsername } from './adapter.ts';

type Listener = (status: LiveStatus) => void;

export interface DemoPlatformOptions {
  /** Where who is live is kept (JSON); absent: memory only (the tests' in-process apps). */
  file?: string;
}

export class DemoPlatform implements PlatformAdapter {
  readonly platform = 'demo' as const;
  private readonly states = new Map<string, LiveStatus>();
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(private readonly options: DemoPlatformOptions = {}) {
    if (options.file) this.load(options.file);
  }

  /** A missing or unreadable file is an empty platform (nobody live), never a failed start. */
  private load(file: string): void {
    let saved: unknown;
    try {
      saved = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return;
    }
    const live = (saved as { live?: unknown } | null)?.live;
    if (!live || typeof live !== 'object') return;
    for (const [key, viewers] of Object.entries(live)) {
      if (typeof viewers === 'number' && Number.isFinite(viewers)) {
        this.states.set(key, { live: true, viewers: Math.max(0, Math.floor(viewers)) });
      }
    }
  }

  /** Written whole to a new file that then replaces the old one, so a crash never leaves half a file. */
  private save(): void {
    const { file } = this.options;
    if (!file) return;
    const live: Record<string, number> = {};
    for (const [key, status] of this.states) if (status.live) live[key] = status.viewers;
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, `${JSON.stringify({ live })}\n`, { mode: 0o600 });
    renameSync(partial, file);
  }

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
    if (live) this.states.set(key, status);
    else this.states.delete(key);
    this.save();
    for (const listener of [...(this.listeners.get(key) ?? [])]) listener(status);
    return status;
  }
}
