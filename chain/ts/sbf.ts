// Which mining program the local chain runs: natively in agave 2.3's bank (the default), or its SBF build,
// target/deploy/mining.so (`./run sbf`), in the SBF engine chain/svm (LiteSVM over agave 4.3, built with
// Debian's rustc 1.97.1 from `./run sbf rust`). STRM_LOCAL_CHAIN_PROGRAM=sbf|native|auto overrides what a
// caller asks for; `auto` takes the SBF build when the toolchain is set up and the .so exists. The suites that
// check the program itself (`programSuite`) take STRM_TEST_CHAIN_PROGRAM first: scripts/with-local-chain.mjs
// sets it to `auto` under CI, so there they run on mining.so wherever CI could build it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export type ChainProgram = 'native' | 'sbf' | 'auto';

/** Built once per process: a suite that starts several chains checks the .so and the engine once. */
let built = false;

function paths(repoRoot: string) {
  const sbfCache = process.env.STRM_SBF_CACHE ?? join(homedir(), '.cache', 'strm-sbf');
  // Outside the clone, as the workspace's target dir; its own, since another cargo and agave build it
  // (scripts/sbf/sbf.sh engine).
  const targetDir = join(homedir(), '.cache', 'strm-target', 'agave4');
  return {
    cargo: join(sbfCache, 'rust-debian-1.97.1', 'bin', 'cargo'),
    program: join(repoRoot, 'target', 'deploy', 'mining.so'),
    engine: join(targetDir, 'release', 'strm-svm'),
  };
}

/** What runs: the environment's choice (the suites' own first, for a suite's chain), else the caller's. */
export function chainProgramChoice(asked: ChainProgram | undefined, programSuite = false): ChainProgram {
  for (const name of [...(programSuite ? ['STRM_TEST_CHAIN_PROGRAM'] : []), 'STRM_LOCAL_CHAIN_PROGRAM']) {
    const fromEnv = process.env[name];
    if (fromEnv === undefined || fromEnv === '') continue;
    if (fromEnv === 'sbf' || fromEnv === 'native' || fromEnv === 'auto') return fromEnv;
    throw new Error(`${name} is sbf, native or auto, not ${JSON.stringify(fromEnv)}`);
  }
  return asked ?? 'native';
}

function run(command: string, args: string[], what: string): void {
  const result = spawnSync('nice', ['-n', '10', command, ...args], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`${what} failed (${[command, ...args].join(' ')})`);
}

/**
 * The chain's arguments for the program asked for: none for the native program; for the SBF build, the
 * engine (built first when `build`, seconds when up to date) and the .so (rebuilt first when `build`).
 * With STRM_LOCAL_CHAIN_BINARY (a prebuilt chain: scripts/with-local-chain.mjs built all three) nothing is built.
 */
export function programArgs(
  repoRoot: string,
  asked: ChainProgram | undefined,
  build: boolean,
  programSuite = false,
): string[] {
  const wanted = chainProgramChoice(asked, programSuite);
  if (wanted === 'native') return [];
  const p = paths(repoRoot);
  const setUp = existsSync(p.cargo) && existsSync(p.program);
  if (!setUp) {
    if (wanted === 'auto') return [];
    throw new Error(
      `the SBF chain needs Debian's rustc 1.97.1 (${p.cargo}: ./run sbf rust) and ${p.program} (./run sbf)`,
    );
  }
  if (build && !built && !process.env.STRM_LOCAL_CHAIN_BINARY) {
    const sbf = join(repoRoot, 'scripts', 'sbf', 'sbf.sh');
    run('bash', [sbf, 'build'], 'building target/deploy/mining.so');
    run('bash', [sbf, 'engine'], 'building the SBF engine');
    built = true;
  }
  if (!existsSync(p.engine)) {
    if (wanted === 'auto') return [];
    throw new Error(`the SBF engine ${p.engine} is not built`);
  }
  return ['--sbf-engine', p.engine, '--sbf-program', p.program];
}
