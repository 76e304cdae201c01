// How far V8 lets the API's heap grow past what it holds before its next full collection
// (docs/benchmarks.md#mining-engine). V8 picks the factor itself, up to 4x the live heap on a machine with
// memory to spare; admitting 10,000 live sessions (handshakes, database reads, chain reads) promotes garbage
// fast enough that it always picked 4x, and a heap V8 has grown it keeps: the API held 10,000 sessions' 270 MB
// in a heap of 800-860 MB (RSS 1,050-1,150 MB). Past the admissions the engine promotes little (about 3.5 MB/s
// at 10,000 live), so a full collection after each 25 % of growth costs next to nothing: the same run measured
// 0.055 ms of CPU per update against 0.057 with V8's choice, and RSS 589 MB against 1,082.
import { setFlagsFromString } from 'node:v8';

/** The heap may grow this far (percent) past its live size before the next full collection. */
export const HEAP_GROWTH_PERCENT = 25;

/** Called as the process starts; `node --heap-growing-percent=…` on the command line is left as given. */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((arg) => arg.startsWith('--heap-growing-percent'))) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWTH_PERCENT}`);
}
