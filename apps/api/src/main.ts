// The API's entry point. The environment is validated before anything heavy is loaded, so a bad value
// stops the process with exactly one line naming it.
import { ConfigError, loadConfig } from './config.ts';
import { limitHeapGrowth } from './heap.ts';

function fail(err: unknown): never {
  const message =
    err instanceof ConfigError ||
    (err instanceof Error && (err.name === 'InstanceLockedError' || err.name === 'ChainMismatchError'))
      ? err.message
      : `STRM failed to start: ${err instanceof Error ? err.message : String(err)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  fail(err);
}
limitHeapGrowth();
const { startServer } = await import('./server.ts');
await startServer(config).catch(fail);
