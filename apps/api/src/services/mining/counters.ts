// The engine's database writes, counted for the benchmark (bench/engine-server.ts reports them).

export interface EngineCounters {
  /** Sessions opened (one insert each). */
  opens: number;
  /** Checkpoint statements, and the session rows they wrote. */
  checkpointStatements: number;
  checkpointRows: number;
  /** Closes written (one statement each). */
  closes: number;
}

export function engineCounters(): EngineCounters {
  return { opens: 0, checkpointStatements: 0, checkpointRows: 0, closes: 0 };
}
