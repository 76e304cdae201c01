// What went through Redis, seen from outside with MONITOR: the SPUBLISH commands Redis ran (the broadcasts an
// instance relayed to the others), so a test can tell an event delivered through Redis from one that was not.
// MONITOR is read from a plain socket rather than ioredis's monitor(): ioredis switches the connection into
// monitoring mode only after it has handled MONITOR's +OK, so a monitor line arriving in the same chunk as
// that +OK (likely on a busy Redis) was taken for the reply to no command, "Command queue state error".
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { Redis } from 'ioredis';

export interface RedisPublishes {
  /** The messages published so far on the channels whose name contains `part`. */
  on(part: string): string[];
  /** Resolves once every command Redis ran before this call has been seen. */
  caughtUp(): Promise<void>;
  close(): void;
}

/**
 * A monitor line's arguments: `+1712098529.327989 [0 127.0.0.1:62763] "spublish" "chan" "msg"`, each quoted
 * as Redis's sdscatrepr quotes it; `\"` is unquoted and other escapes are kept, as ioredis's parser does.
 */
export function monitorArgs(line: string): string[] {
  const first = line.indexOf('"');
  if (first < 0) return [];
  return line
    .slice(first + 1, -1)
    .split('" "')
    .map((arg) => arg.replace(/\\"/g, '"'));
}

/** Opens a MONITOR connection and resolves once Redis has answered +OK (everything after it is seen). */
function openMonitor(url: string, onLine: (line: string) => void): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    let buffer = '';
    let monitoring = false;
    socket.setEncoding('latin1');
    socket.once('error', reject);
    socket.on('connect', () => socket.write('MONITOR\r\n'));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (monitoring) onLine(line);
        else if (line === '+OK') {
          monitoring = true;
          socket.off('error', reject);
          socket.on('error', () => {});
          resolve(socket);
        } else reject(new Error(`Redis refused MONITOR: ${line}`));
      }
    });
  });
}

export async function watchPublishes(url: string): Promise<RedisPublishes> {
  const seen: Array<{ channel: string; message: string }> = [];
  const markers = new Map<string, () => void>();
  const monitor = await openMonitor(url, (line) => {
    const args = monitorArgs(line);
    const command = args[0]?.toLowerCase();
    if (command === 'spublish') seen.push({ channel: args[1]!, message: args[2]! });
    if (command === 'echo') markers.get(args[1]!)?.();
  });
  const admin = new Redis(url);
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
      monitor.destroy();
      admin.disconnect();
    },
  };
}
