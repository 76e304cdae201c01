// The mining program's SBF build (target/deploy/mining.so, from `./run sbf`) run by LiteSVM: the SBF
// loader, the 4 KB stack frame and 32 KB heap, real compute units and CPIs as inner instructions, with
// LiteSVM's SPL Token and Associated Token programs. Run by `pnpm test:sbf` (scripts/sbf/test.mjs), which
// builds the .so first; each instruction's compute units are printed and checked against a budget.
//
// Every test of the native suite (programs/mining-tests/tests/mining/) has its SBF counterpart in
// native-parity/, one module per native module, titled with the native test's name (underscores as spaces),
// asserting the same error codes, balances and account data on the .so; they run here, in one file, so that
// the compute units they record are checked together. The tests after those are the SBF run's own (the
// client's transaction, the full tier table, that no native test is left without its counterpart, compute
// budgets).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import { afterAll, describe, expect, it } from 'vitest';
import {
  SbfHarness,
  expectCode,
  expectOk,
  holdingsAddress,
  MINING_PROGRAM_ID,
  meter,
  NATIVE_TESTS,
  SO,
  streamerPda,
  UNIT,
} from './harness.ts';
import { activationParity } from './native-parity/activation.ts';
import { attackParity } from './native-parity/attacks.ts';
import { authorityParity } from './native-parity/authority.ts';
import { deactivationParity } from './native-parity/deactivation.ts';
import { initializationParity } from './native-parity/initialization.ts';
import {
  ACTIVATE,
  ACTIVATE_CLIENT,
  ACTIVATE_REFUSED,
  ALREADY_ACTIVE,
  MAX_TIERS,
} from './native-parity/support.ts';

const BUDGETS: Record<string, number> = {
  initialize: 20_000,
  add_tier: 15_000,
  update_tier: 15_000,
  remove_tier: 15_000,
  propose_authority: 15_000,
  accept_authority: 15_000,
  [ACTIVATE]: 60_000,
  [ACTIVATE_CLIENT]: 60_000,
  [ACTIVATE_REFUSED]: 60_000,
  deactivate_tier: 40_000,
};

const haveSo = existsSync(SO);
/** CI builds the .so before this suite (scripts/sbf/test.mjs): there a missing one fails instead of skipping. */
const ci = process.env.CI === 'true' || process.env.CI === '1';

describe.skipIf(!haveSo && !ci)('the mining program as SBF (LiteSVM)', () => {
  it('has the SBF build to run', () => {
    expect(existsSync(SO), `${SO} is missing: ./run sbf builds it`).toBe(true);
  });

  afterAll(() => {
    const lines = Object.entries(BUDGETS).map(([name, budget]) => {
      const seen = meter.get(name);
      const units = seen ? (seen.min === seen.max ? `${seen.max}` : `${seen.min}-${seen.max}`) : '-';
      return `${name.padEnd(64)} ${units.padStart(13)} CU  (budget ${budget})`;
    });
    const table = `${lines.join('\n')}\n`;
    mkdirSync(dirname(SO), { recursive: true });
    writeFileSync(join(dirname(SO), 'mining-compute-units.txt'), table);
    console.log(`Compute units of ${SO}:\n${table}`);
  });

  initializationParity();
  authorityParity();
  activationParity();
  deactivationParity();
  attackParity();

  // ---- the SBF run's own ---------------------------------------------------------------------

  describe('on the SBF runtime', () => {
    it("the client's activation (holdings created idempotently first) and deactivation", async () => {
      const h = await SbfHarness.withTiers([['Tier 2', 5_000n]]);
      const mint = h.mint.publicKey;
      const { wallet, ata } = h.walletWith(mint, 12_000n);
      const w = wallet.publicKey;
      const holdings = holdingsAddress(w, mint);
      // As activateTierInstructions builds it: the holdings ATA (payer pays its rent), then the activation.
      const outcome = expectOk(
        h.send(
          [
            createAssociatedTokenAccountIdempotentInstruction(
              h.payer.publicKey,
              holdings,
              streamerPda(w),
              mint,
            ),
            await h.activateIx(w, ata, holdings, 'Tier 2', 5_000n * UNIT),
          ],
          [wallet],
        ),
        ACTIVATE_CLIENT,
      );
      expect(h.tokenBalance(ata)).toBe(7_000n * UNIT);
      expect(h.tokenBalance(holdings)).toBe(5_000n * UNIT);
      expect(outcome.logs.some((l) => l.startsWith('Program data: '))).toBe(true);
      expect(outcome.logs.some((l) => l.includes(`${MINING_PROGRAM_ID.toBase58()} consumed`))).toBe(true);
      expectOk(await h.deactivate(wallet, ata), 'deactivate_tier');
      expect(h.tokenBalance(ata)).toBe(12_000n * UNIT);
      expect(h.account(holdings)).toBeNull();
    });

    it('activates and deactivates the last tier of a full table (the longest tier lookup)', async () => {
      const h = await SbfHarness.withTiers([]);
      for (let i = 1; i <= MAX_TIERS; i++) {
        expectOk(await h.addTier(h.authority, `Tier ${i}`.padEnd(32, '*'), BigInt(i) * UNIT), 'add_tier');
      }
      const last = h.config().tiers.at(-1)?.name ?? '';
      expect(last).toHaveLength(32);
      const { wallet, ata } = h.walletWith(h.mint.publicKey, 100n);
      expectOk(await h.activate(wallet, ata, last), ACTIVATE);
      expectCode(await h.activate(wallet, ata, last), ALREADY_ACTIVE, ACTIVATE_REFUSED);
      expectOk(await h.updateTier(h.authority, last, 1n), 'update_tier');
      expectOk(await h.deactivate(wallet, ata), 'deactivate_tier');
      expect(h.tokenBalance(ata)).toBe(100n * UNIT);
      expectOk(await h.removeTier(h.authority, last), 'remove_tier');
    });

    it('every native test has a twin here', () => {
      const native = readdirSync(NATIVE_TESTS, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.rs'))
        .flatMap((file) => [
          ...readFileSync(join(NATIVE_TESTS, file), 'utf8').matchAll(/#\[tokio::test\]\s*async fn (\w+)/g),
        ])
        .map((m) => m[1]?.replaceAll('_', ' ') ?? '');
      expect(native.length).toBeGreaterThanOrEqual(40);
      const sbf = dirname(fileURLToPath(import.meta.url));
      const own = readdirSync(sbf, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => readFileSync(join(sbf, file), 'utf8'))
        .join('\n');
      const missing = native.filter((name) => !own.includes(`it('${name}',`));
      expect(missing).toEqual([]);
    });

    it('keeps every instruction within its compute budget', () => {
      for (const name of Object.keys(BUDGETS)) expect(meter.has(name), `${name} was measured`).toBe(true);
      for (const [name, { max }] of meter) {
        expect(max, name).toBeGreaterThan(0);
        expect(max, `${name}: ${max} CU`).toBeLessThanOrEqual(BUDGETS[name] ?? 0);
      }
      expect(meter.get(ACTIVATE)?.max).toBeLessThan(60_000);
    });
  });
});
