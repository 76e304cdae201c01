// The demo platform: a local configuration's stand-in for Twitch/TikTok so a new user can go live and mine
// without an account there. The user toggles "live" through the dev API; nothing leaves the machine. Like a
// real platform's, its live state is not the API's memory: the server keeps it in the database
// (`demo_live`), so a restarted (or crashed) API finds its streamers still live and resumes their sessions.
import type { PrismaClient } from '../db/index.ts';
import type { LiveStatus, PlatformAccountRef, PlatformAdapter } from './adapter.ts';
import { normaliseUsername } from './adapter.ts';

type Listener = (status: LiveStatus) => void;

export class DemoPlatform implements PlatformAdapter {
  readonly platform = 'demo' as const;
  private readonly states = new Map<string, LiveStatus>();
  private readonly listeners = new Map<string, Set<Listener>>();

  /** `prisma`: where the live state is kept; absent, memory only (benchmarks, in-process tests). */
  constructor(private readonly prisma?: PrismaClient) {}

  /** Reads who is live from the database (the API's start, before any session is resumed). */
  async load(): Promise<void> {
    if (!this.prisma) return;
    for (const row of await this.prisma.demoLive.findMany()) {
      this.states.set(row.username, { live: true, viewers: row.viewers });
    }
  }

  /** The user's toggle (dev API): kept in the database first, then told to the sessions watching. */
  async set(username: string, live: boolean, viewers = 0): Promise<LiveStatus> {
    const key = normaliseUsername(username);
    const count = live ? Math.max(0, Math.floor(viewers)) : 0;
    if (this.prisma) {
      if (live) {
        await this.prisma.demoLive.upsert({
          where: { username: key },
          create: { username: key, viewers: count },
          update: { viewers: count },
        });
      } else {
        await this.prisma.demoLive.deleteMany({ where: { username: key } });
      }
    }
    return this.setLive(username, live, viewers);
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

  /** In memory only: the tests' and benchmarks' way to go live or offline (the dev API uses `set`). */
  setLive(username: string, live: boolean, viewers = 0): LiveStatus {
    const key = normaliseUsername(username);
    const status = { live, viewers: live ? Math.max(0, Math.floor(viewers)) : 0 };
    if (live) this.states.set(key, status);
    else this.states.delete(key);
    for (const listener of [...(this.listeners.get(key) ?? [])]) listener(status);
    return status;
  }
}
