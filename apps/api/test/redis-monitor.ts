// What went through Redis, seen from outside with MONITOR: the SPUBLISH commands Redis ran (the broadcasts an
// instance relayed to the others), so a test can tell an event delivered through Redis from one that was not.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export interface RedisPublishes {
  /** The messages published so far on the channels whose name contains `part`. */
  on(part: string): string[];
  /** Resolves once every command Redis ran before this call has been seen. */
  caughtUp(): Promise<void>;
  close(): void;
}

export async function watchPublishes(url: string): Promise<RedisPublishes> {
  const admin = new Redis(url);
  const monitor = await admin.monitor();
  const seen: Array<{ channel: string; message: string }> = [];
  const markers = new Map<string, () => void>();
  monitor.on('monitor', (_time: string, args: string[]) => {
    const command = args[0]?.toLowerCase();
    if (command === 'spublish') seen.push({ channel: args[1]!, message: args[2]! });
    if (command === 'echo') markers.get(args[1]!)?.();
  });
  return {
    on: (part) => seen.filter((s) => s.channel.includes(part)).map((s) => s.message),
    async caughtUp() {
      // MONITOR shows commands in the order Redis runs them: once this marker shows, everything before has.
      const marker = `strm-test-marker-${randomBytes(6).toString('hex')}`;
      const shown = new Promise<void>((resolve) => markers.set(marker, resolve));
      await admin.echo(marker);
      await shown;
      markers.delete(marker);
    },
    close() {
      monitor.disconnect();
      admin.disconnect();
    },
  };
}
