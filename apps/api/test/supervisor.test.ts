// The supervisor that restarts the embedded PostgreSQL and the local chain when they die
// (docs/operations.md#faults), on a real child process: killed, it is started again with back-off and
// counted; after quiesce (shutdown) it is not.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { createMetrics } from '../src/observability/metrics.ts';
import { Supervisor } from '../src/supervisor.ts';
import { waitFor } from './support/engine-harness.ts';

function sleeper() {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    pid: child.pid!,
    exited,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('the supervisor', () => {
  it('starts a killed process again, says so, and stops restarting once shutdown begins', async () => {
    const metrics = createMetrics();
    const restarted: number[] = [];
    const supervisor = new Supervisor(async () => sleeper(), {
      name: 'sleeper',
      logger: createLogger('silent'),
      metrics,
      minBackoffMs: 50,
      onRestarted: (n) => restarted.push(n),
    });
    const first = await supervisor.start();
    // The sleep processes this test process runs now.
    const sleeping = async () => {
      const out = await new Promise<string>((resolve) => {
        const ps = spawn('ps', ['--ppid', String(process.pid), '-o', 'pid=,comm=']);
        let text = '';
        ps.stdout.on('data', (c: Buffer) => {
          text += c.toString();
        });
        ps.once('exit', () => resolve(text));
      });
      return out
        .split('\n')
        .map((l) => l.trim().split(/\s+/))
        .filter(([, comm]) => comm === 'sleep')
        .map(([pid]) => Number(pid));
    };

    process.kill(first.pid, 'SIGKILL');
    await waitFor(() => supervisor.restarts === 1, 10_000);
    expect(supervisor.restarting).toBe(false);
    expect(restarted).toEqual([1]);
    const [second, ...more] = (await sleeping()).filter((pid) => pid !== first.pid);
    expect(second).toBeDefined();
    expect(more).toEqual([]);

    // Shutdown has begun: a process that dies now stays dead.
    supervisor.quiesce();
    process.kill(second!, 'SIGKILL');
    await waitFor(async () => !(await sleeping()).includes(second!), 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(supervisor.restarts).toBe(1);
    expect(await sleeping()).toEqual([]);
    await supervisor.stop();
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/strm_background_failing\{loop="sleeper"\} 0/);
  });
});
