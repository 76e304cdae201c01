// `pnpm --filter @strm/api fuzz`: Schemathesis (PyPI, pinned, in a private venv set up by
// scripts/schemathesis/setup.sh) against the started product, fuzzing every operation of
// GET /api/v1/openapi.json twice: with a valid bearer token (an admin's, so the admin operations are
// reached) and with none. Passes only with no 5xx, no response that breaks its documented schema, status
// or content type, and no request accepted that the schema refuses. Fixed seed and bounded examples, so a
// run is repeatable; FUZZ_MAX_EXAMPLES and FUZZ_SEED change them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Keypair } from '@solana/web3.js';
import { FakeKick, FakeTwitch, FakeYouTube, freePort, freePortPair, startProcess } from '@strm/testing';
import nacl from 'tweetnacl';

const apiDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(apiDir, '..', '..');
const reports = join(repoRoot, '.test-reports', 'schemathesis');
const maxExamples = process.env.FUZZ_MAX_EXAMPLES ?? '12';
const seed = process.env.FUZZ_SEED ?? '20261125';

async function startProduct(
  admin: string,
  env: Record<string, string>,
): Promise<{ url: string; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'strm-fuzz-'));
  const port = await freePort();
  const removeData = () => rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  const product = await startProcess(process.execPath, ['--import', 'tsx', 'src/main.ts'], 'is ready at', {
    cwd: apiDir,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(await freePort()),
      LOCAL_CHAIN_PORT: String(await freePortPair()),
      ADMIN_WALLETS: admin,
      ...env,
      // The fuzzer sends thousands of requests a minute; the limits are tested elsewhere.
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    },
    label: 'product',
  }).catch((err: unknown) => {
    removeData();
    throw err;
  });
  const stop = async () => {
    await product.stop();
    removeData();
  };
  // Later output (warnings, errors) goes to the console: a 5xx's cause shows up beside it.
  product.child.stdout?.on('data', (c: Buffer) => process.stderr.write(c));
  product.child.stderr?.on('data', (c: Buffer) => process.stderr.write(c));
  return { url: `http://127.0.0.1:${port}`, stop };
}

async function signIn(url: string, keypair: Keypair): Promise<string> {
  const wallet = keypair.publicKey.toBase58();
  const nonce = (await (await fetch(`${url}/api/v1/nonce?publicKey=${wallet}`)).json()) as {
    nonce: string;
    message: string;
  };
  const signedMessage = Array.from(
    nacl.sign.detached(new TextEncoder().encode(nonce.message), keypair.secretKey),
  );
  const res = await fetch(`${url}/api/v1/authenticate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ publicKey: wallet, signedMessage, nonce: nonce.nonce }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

interface RunSummary {
  name: string;
  operations: number;
  requests: number;
  failures: number;
  exitCode: number;
}

function fuzz(st: string, url: string, name: string, headers: string[]): RunSummary {
  const ndjson = join(reports, `${name}.ndjson`);
  const args = [
    'run',
    `${url}/api/v1/openapi.json`,
    '--url',
    `${url}/api/v1`,
    '--checks',
    'all',
    // Not checked: object_level_authorization (admin routes act on any wallet by design; the others act on
    // the token's wallet only), positive_data_acceptance (schema-valid input may still break a business rule: an
    // unknown time zone name, a reward above the configured maximum, a code never generated), and the
    // stateful checks that assume REST resources (create, then read back by id) this API does not have.
    '--exclude-checks',
    'positive_data_acceptance,object_level_authorization,use_after_free,ensure_resource_availability',
    '--phases',
    'examples,coverage,fuzzing',
    '--mode',
    'all',
    '--max-examples',
    maxExamples,
    '--seed',
    seed,
    '--workers',
    '1',
    '--no-shrink',
    '--request-timeout',
    '30',
    '--suppress-health-check',
    'all',
    '--report',
    'ndjson',
    '--report-ndjson-path',
    ndjson,
    '--output-truncate',
    'true',
    ...headers.flatMap((h) => ['-H', h]),
  ];
  let exitCode = 0;
  try {
    execFileSync(st, args, {
      cwd: reports,
      stdio: 'inherit',
      env: { ...process.env, SCHEMATHESIS_TELEMETRY: 'false' },
    });
  } catch (err) {
    exitCode = (err as { status?: number }).status ?? 1;
  }
  return { name, exitCode, ...countEvents(ndjson) };
}

/** Operations, requests and failures from the run's NDJSON event stream. */
function countEvents(path: string): { operations: number; requests: number; failures: number } {
  const operations = new Set<string>();
  let requests = 0;
  let failures = 0;
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { operations: 0, requests: 0, failures: 0 };
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const event = JSON.parse(line) as Record<string, Record<string, unknown>>;
    const finished = event.ScenarioFinished;
    if (!finished) continue;
    const label = (finished.recorder as { label?: string } | undefined)?.label;
    if (label) operations.add(label);
    const interactions = (finished.recorder as { interactions?: Record<string, unknown> } | undefined)
      ?.interactions;
    requests += interactions ? Object.keys(interactions).length : 0;
    const checks = (finished.recorder as { checks?: Record<string, Array<{ status: string }>> } | undefined)
      ?.checks;
    for (const list of Object.values(checks ?? {})) {
      failures += list.filter((c) => c.status === 'FAILURE' || c.status === 'failure').length;
    }
  }
  return { operations: operations.size, requests, failures };
}

const st = execFileSync('bash', [join(repoRoot, 'scripts', 'schemathesis', 'setup.sh')], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
}).trim();
mkdirSync(reports, { recursive: true });
const admin = Keypair.generate();
// Twitch, YouTube and Kick are configured against local fakes (the product's platform calls stay on this
// machine), so their routes answer as configured ones do, not 503.
const twitch = new FakeTwitch();
const youtube = new FakeYouTube();
const kick = new FakeKick();
const fakes = [twitch, youtube, kick];
await Promise.all(fakes.map((fake) => fake.start()));
const stopFakes = () => Promise.all(fakes.map((fake) => fake.stop()));
/** Free ports are picked before the product binds them; another program may take one meanwhile. */
async function startWithRetry(attempts = 3): Promise<Awaited<ReturnType<typeof startProduct>>> {
  try {
    return await startProduct(admin.publicKey.toBase58(), {
      ...twitch.env(),
      ...youtube.env(),
      ...kick.env(),
    });
  } catch (err) {
    if (attempts <= 1 || !String(err).includes('Address already in use')) throw err;
    console.error('schemathesis: a port was taken before the product bound it; starting again on others');
    return startWithRetry(attempts - 1);
  }
}
const product = await startWithRetry().catch(async (err) => {
  await stopFakes();
  throw err;
});
let results: RunSummary[] = [];
try {
  const token = await signIn(product.url, admin);
  results = [
    fuzz(st, product.url, 'with-token', [`Authorization: Bearer ${token}`]),
    fuzz(st, product.url, 'anonymous', []),
  ];
} finally {
  await product.stop();
  await stopFakes();
}
for (const r of results) {
  console.log(
    `schemathesis ${r.name}: ${r.operations} operations, ${r.requests} requests, ${r.failures} failures (exit ${r.exitCode})`,
  );
}
const failed = results.some((r) => r.exitCode !== 0);
console.log(failed ? 'schemathesis: FAILED' : 'schemathesis: passed');
process.exit(failed ? 1 : 0);
