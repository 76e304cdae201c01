// The embedded defaults (PostgreSQL, the local chain) are child processes of the API: when one dies it is
// started again, with back-off, and the API's clients reconnect to it (the database pools replace dead
// connections, web3.js resubscribes its WebSocket). /health says `restarting` meanwhile and counts restarts.
import type { Logger } from './logger.ts';
import type { Metrics } from './observability/metrics.ts';
import type { SupervisedStatus } from './observability/dependencies.ts';

export interface SupervisedProcess {
  /** Settles when the process is gone, whatever the reason. */
  exited: Promise<unknown>;
  stop(): Promise<void>;
}

export interface SupervisorOptions {
  /** 'embedded PostgreSQL', 'local chain': for logs and the console. */
  name: string;
  logger: Logger;
  metrics?: Metrics;
  /** The first restart waits this long; each failed one doubles it up to `maxBackoffMs`. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Told after each successful restart (the console line). */
  onRestarted?: (restarts: number) => void;
}

/** What the rest of the API sees of a supervisor. */
export interface Supervision extends SupervisedStatus {
  /**
   * Restarts nothing from now on (shutdown has begun: a Ctrl-C reaches the children too, and they must not
   * be started again under a stopping API).
   */
  quiesce(): void;
}

export class Supervisor<P extends SupervisedProcess> implements Supervision {
  private current: P | undefined;
  private stopping = false;
  private restartCount = 0;
  private down = false;
  private retry: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly launch: () => Promise<P>,
    private readonly options: SupervisorOptions,
  ) {}

  get restarting(): boolean {
    return this.down;
  }

  get restarts(): number {
    return this.restartCount;
  }

  /** The first start: a failure here is the caller's (the API does not start without it). */
  async start(): Promise<P> {
    const started = await this.launch();
    this.watch(started);
    return started;
  }

  private watch(process: P): void {
    this.current = process;
    void process.exited.then(() => {
      if (this.stopping || this.current !== process) return;
      this.down = true;
      this.options.metrics?.backgroundFailing.set({ loop: this.options.name }, 1);
      this.options.logger.error({ process: this.options.name }, `${this.options.name} exited; restarting it`);
      void this.restart().catch((err: unknown) =>
        this.options.logger.error({ err, process: this.options.name }, 'supervisor failed'),
      );
    });
  }

  private async restart(): Promise<void> {
    const min = this.options.minBackoffMs ?? 500;
    const max = this.options.maxBackoffMs ?? 15_000;
    for (let attempt = 0; !this.stopping; attempt++) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.retry = setTimeout(resolve, Math.min(max, min * 2 ** attempt));
      });
      if (this.stopping) return;
      try {
        const next = await this.launch();
        if (this.stopping) {
          await next.stop();
          return;
        }
        this.restartCount++;
        this.down = false;
        this.options.metrics?.backgroundFailing.set({ loop: this.options.name }, 0);
        this.options.logger.info(
          { process: this.options.name, restarts: this.restartCount },
          `${this.options.name} restarted`,
        );
        this.options.onRestarted?.(this.restartCount);
        this.watch(next);
        return;
      } catch (err) {
        this.options.metrics?.backgroundFailures.inc({ loop: this.options.name });
        this.options.logger.error(
          { err, process: this.options.name, attempt: attempt + 1 },
          `${this.options.name} did not start again; retrying`,
        );
      }
    }
  }

  quiesce(): void {
    this.stopping = true;
    clearTimeout(this.retry);
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.retry);
    this.wake?.();
    await this.current?.stop();
  }
}
