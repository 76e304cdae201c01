// Which validator the launcher runs: the project's own local chain (the default) or, with LOCAL_CHAIN=agave,
// agave's test validator from crates.io with target/deploy/mining.so at genesis (chain/agave, built by
// scripts/agave/build.sh), the reference the local chain is held to (docs/chain.md#the-reference-validator).
// Both take the same arguments and print a ready line; what a caller gets back is the same LocalChain.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { MINING_PROGRAM_ID } from '@strm/mining-client';

export type ValidatorKind = 'local' | 'agave';

/** LOCAL_CHAIN: `agave` for agave's validator; unset, empty or `local` for the project's own chain. */
export function validatorKind(): ValidatorKind {
  const fromEnv = process.env.LOCAL_CHAIN;
  if (fromEnv === undefined || fromEnv === '' || fromEnv === 'local') return 'local';
  if (fromEnv === 'agave') return 'agave';
  throw new Error(`LOCAL_CHAIN is local or agave, not ${JSON.stringify(fromEnv)}`);
}

/** STRM_AGAVE_VALIDATOR_BINARY when set (prebuilt, never rebuilt), else the shared target dir's build. */
export function agaveBinaryPath(): string {
  if (process.env.STRM_AGAVE_VALIDATOR_BINARY) return process.env.STRM_AGAVE_VALIDATOR_BINARY;
  const targetDir = process.env.STRM_AGAVE_TARGET_DIR ?? join(homedir(), '.cache', 'strm-agave-target');
  return join(targetDir, 'release', 'strm-agave-validator');
}

/** Builds mining.so and the validator (each a no-op when up to date). */
export function buildAgaveValidator(repoRoot: string): void {
  const result = spawnSync('bash', [join(repoRoot, 'scripts', 'agave', 'build.sh'), 'build'], {
    cwd: repoRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error('building agave’s validator (scripts/agave/build.sh) failed');
}

/** The validator's own arguments beyond the shared ones: the program it loads at genesis. */
export function agaveProgramArgs(repoRoot: string): string[] {
  const program = join(repoRoot, 'target', 'deploy', 'mining.so');
  if (!existsSync(program))
    throw new Error(`agave’s validator loads ${program}, which is not built (./run sbf)`);
  if (!existsSync(agaveBinaryPath()))
    throw new Error(`${agaveBinaryPath()} is not built (scripts/agave/build.sh)`);
  return ['--program', program, '--program-id', MINING_PROGRAM_ID.toBase58()];
}
