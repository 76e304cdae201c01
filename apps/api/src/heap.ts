// How far V8 lets the API's heap grow past what it holds before its next full collection. V8 picks the
// factor itself, up to 4x the live heap on a machine with memory to spare, and a burst of admissions
// (handshakes, database and chain reads) promotes garbage fast enough that it picks 4x and keeps the heap it
// grew. Past the admissions the engine promotes little, so a full collection after each 25 % of growth costs
// next to nothing in CPU per update and keeps the resident memory near half (docs/benchmarks.md#mining-engine).
import { setFlagsFromString } from 'node:v8';

/** The heap may grow this far (percent) past its live size before the next full collection. */
export const HEAP_GROWTH_PERCENT = 25;

/** Called as the process starts; `node --heap-growing-percent=…` on the command line is left as given. */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((arg) => arg.startsWith('--heap-growing-percent'))) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWTH_PERCENT}`);
}
