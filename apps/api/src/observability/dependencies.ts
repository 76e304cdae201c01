// What /health reports beyond its own probes: the processes the API supervises (the embedded PostgreSQL
// and the local chain, restarted when they die) and Redis. Filled in by server.ts as each one starts.

/** A child process the API restarts when it dies. */
export interface SupervisedStatus {
  /** Dead and not running again yet (restarting, with back-off). */
  readonly restarting: boolean;
  /** Restarts since the API started. */
  readonly restarts: number;
}

export interface Dependencies {
  database?: SupervisedStatus;
  localChain?: SupervisedStatus;
  redis?: { ping(): Promise<void> };
}
