// The dashboard operators import (deploy/grafana/strm.json) against a real Prometheus (Debian's `prometheus`)
// scraping a running API with its bearer token and loading deploy/prometheus/strm.rules.yml: every panel's
// query returns at least one series (docs/operations.md#dashboard); then the panels are drawn from
// Prometheus's query_range answers over the test's run and screenshotted in Chromium: the picture in
// docs/operations.md#dashboard (STRM_DASHBOARD_SCREENSHOT=<path> writes it there; by default into
// .test-reports/).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { launchChromium } from '@strm/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { type Panel, type PanelData, type RangeSeries, renderDashboard } from './support/dashboard-render.ts';
import { platformFetch } from '../src/platforms/fetch.ts';
import {
  connect,
  type EngineServer,
  request as socketRequest,
  selfTransfer,
  startEngineServer,
  startTestChain,
  type TestChain,
  wallClock,
} from './support/engine-harness.ts';
import { fundedWallets } from './support/payouts.ts';
import { freePort } from './support/ports.ts';
import { minedOnce } from './support/test-app.ts';

const repo = join(import.meta.dirname, '..', '..', '..');
const dashboard = JSON.parse(readFileSync(join(repo, 'deploy', 'grafana', 'strm.json'), 'utf8')) as {
  title: string;
  panels: Panel[];
};
const screenshot = process.env.STRM_DASHBOARD_SCREENSHOT
  ? join(repo, process.env.STRM_DASHBOARD_SCREENSHOT)
  : join(repo, '.test-reports', 'dashboard.png');
const METRICS_TOKEN = 'dashboard-test-metrics-token-0123';

let chain: TestChain;
let server: EngineServer;
let prometheus: ChildProcess | undefined;
let prometheusUrl: string;
let dataDir: string;
let prometheusLog = '';

beforeAll(async () => {
  chain = await startTestChain();
  server = await startEngineServer(chain, { clock: wallClock, env: { METRICS_TOKEN } });
  dataDir = await mkdtemp(join(tmpdir(), 'strm-prometheus-'));
  const port = await freePort();
  prometheusUrl = `http://127.0.0.1:${port}`;
  await writeFile(join(dataDir, 'metrics-token'), METRICS_TOKEN);
  await writeFile(
    join(dataDir, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      `rule_files: [${JSON.stringify(join(repo, 'deploy', 'prometheus', 'strm.rules.yml'))}]`,
      'scrape_configs:',
      '  - job_name: strm-api',
      // As the compose profile hands it over (deploy/prometheus/prometheus.yml): the token in a file.
      `    authorization: { credentials_file: ${JSON.stringify(join(dataDir, 'metrics-token'))} }`,
      `    static_configs: [{ targets: [${JSON.stringify(new URL(server.url).host)}] }]`,
      '',
    ].join('\n'),
  );
  prometheus = spawn(
    'prometheus',
    [
      `--config.file=${join(dataDir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dataDir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  prometheus.stderr?.on('data', (chunk: Buffer) => {
    prometheusLog = `${prometheusLog}${chunk}`.slice(-4000);
  });
  await until(async () => (await fetch(`${prometheusUrl}/-/ready`).catch(() => null))?.ok === true, 30_000);
}, 180_000);

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((r) => prometheus!.once('exit', r));
    prometheus.kill('SIGTERM');
    await exited;
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await server?.close();
  await server?.drop();
  await chain?.stop();
});

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

async function query(
  expr: string,
): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> {
  const res = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await res.json()) as { status: string; error?: string; data?: { result: [] } };
  if (body.status !== 'success') throw new Error(`${expr}: ${body.error}`);
  return body.data!.result;
}

async function queryRange(expr: string, from: number, to: number): Promise<RangeSeries[]> {
  const params = new URLSearchParams({ query: expr, start: String(from), end: String(to), step: '1' });
  const res = await fetch(`${prometheusUrl}/api/v1/query_range?${params}`);
  const body = (await res.json()) as { status: string; error?: string; data?: { result: RangeSeries[] } };
  if (body.status !== 'success') throw new Error(`${expr}: ${body.error}`);
  return body.data!.result;
}

/** A collect paid on chain: a reservation confirmed (the payout latency's histogram counts it). */
async function collect(wallet: Awaited<ReturnType<typeof fundedWallets>>[number]) {
  const address = wallet.publicKey.toBase58();
  await server.prisma.streamer.update({
    where: { wallet: address },
    data: { pendingRewardUnits: 1_000_000n },
  });
  const socket = await connect(server, address);
  const signature = await selfTransfer(chain, wallet);
  const paid = await socketRequest(socket, 'collect-rewards', { signature, wallet: address }, [
    'rewards-collected',
    'rewards-error',
  ]);
  expect(paid.event).toBe('rewards-collected');
  return socket;
}

describe('the Grafana dashboard', () => {
  it('every panel query returns a series from a real Prometheus scraping the API', async () => {
    const from = Math.floor(Date.now() / 1000);
    const [first, second, owed] = await fundedWallets(chain, 3);
    for (const w of [first!, second!, owed!])
      await minedOnce(server.prisma, w.publicKey.toBase58(), new Date());
    await server.prisma.streamer.update({
      where: { wallet: owed!.publicKey.toBase58() },
      data: { pendingRewardUnits: 5_000_000n },
    });
    const socket = await collect(first!);
    for (const [n, status] of (['failed', 'sent'] as const).entries()) {
      await server.prisma.rewardClaim.create({
        data: {
          wallet: owed!.publicKey.toBase58(),
          requestSignature: `dashboard-test-${n}`,
          amountUnits: 1n,
          status,
          error: status === 'failed' ? 'payout failed on chain' : null,
          settledAt: status === 'failed' ? new Date() : null,
        },
      });
    }
    // A platform's API answered (the Kick adapter's helper, against a local stand-in).
    const fake = createServer((_req, res) => res.writeHead(429).end('{}'));
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/`;
    await platformFetch('Kick', fakeUrl, { timeoutMs: 2000 }, createLogger('silent'));
    await new Promise<void>((r) => fake.close(() => r()));

    // Scraped once, then a second payout: the latency histogram's rate has something to show.
    const scraped = await until(async () => (await query('up{job="strm-api"} == 1')).length > 0, 30_000);
    expect(scraped, prometheusLog).toBe(true);
    const secondSocket = await collect(second!);

    const queries = dashboard.panels.flatMap((p) => p.targets.map((t) => ({ panel: p.title, expr: t.expr })));
    expect(queries.length).toBeGreaterThanOrEqual(15);
    const empty = new Set(queries.map((q) => `${q.panel}: ${q.expr}`));
    await until(async () => {
      for (const q of queries) {
        if ((await query(q.expr)).length > 0) empty.delete(`${q.panel}: ${q.expr}`);
      }
      return empty.size === 0;
    }, 90_000);
    expect([...empty]).toEqual([]);

    // The figures behind the panels, as the API reported them.
    const value = async (expr: string) => Number((await query(expr))[0]?.value[1]);
    expect(await value('max(strm_pending_reward_units)')).toBe(5_000_000);
    expect(await value('max(strm_reward_claims_unsettled_oldest_seconds)')).toBeGreaterThanOrEqual(0);
    expect(await value('max by (reason) (strm_payout_failures_total)')).toBe(1);
    expect(await value('min(strm_dependency_up)')).toBe(1);
    const recorded = await until(
      async () =>
        Number.isFinite(
          await value(
            'histogram_quantile(0.95, max by (le) (rate(strm_payout_duration_seconds_bucket[15m])))',
          ),
        ),
      30_000,
    );
    expect(recorded).toBe(true);
    // The second payout's units seen: the treasury's days left at the pace of payouts is finite.
    const paced = await until(async () => Number.isFinite(await value('strm:treasury_days_left')), 60_000);
    expect(paced).toBe(true);
    socket.disconnect();
    secondSocket.disconnect();

    // The rules read the API's real series: every recording the alerts use has a value.
    for (const record of [
      'strm:treasury_token_units',
      'strm:treasury_sol_lamports',
      'strm:rewards_owed_units',
      'strm:payouts_confirmed_units',
      'strm:payout_failures:increase15m',
      'strm:platform_requests:rate5m',
    ]) {
      expect(await query(record), record).not.toHaveLength(0);
    }
    // What is owed grows past the treasury: the alert is pending at once (it fires after 15 minutes).
    const treasury = await value('strm:treasury_token_units');
    await server.prisma.streamer.update({
      where: { wallet: owed!.publicKey.toBase58() },
      data: { pendingRewardUnits: BigInt(treasury) + 1n },
    });
    const pending = await until(
      async () =>
        (await query('ALERTS{alertname="StrmRewardsOwedExceedTreasury",alertstate="pending"}')).length > 0,
      60_000,
    );
    expect(pending).toBe(true);

    // The dashboard as an operator sees it: each panel drawn from Prometheus's answers since the test began.
    const to = Math.ceil(Date.now() / 1000);
    const data: PanelData[] = [];
    for (const panel of dashboard.panels)
      data.push(await Promise.all(panel.targets.map((t) => queryRange(t.expr, from, to))));
    const page = renderDashboard(dashboard.title, dashboard.panels, data, {
      from,
      to,
      source: 'Prometheus query_range, scraping a running API on the local chain',
    });
    const browser = await launchChromium({ timezoneId: 'UTC' });
    try {
      const tab = await browser.browser.newPage();
      await tab.setViewportSize({ width: 1440, height: 900 });
      await tab.setContent(page);
      const drawn = await tab.$$eval('section.panel', (sections) =>
        sections.map((s) => [s.querySelector('h2')?.textContent, Number(s.getAttribute('data-series'))]),
      );
      expect(drawn.filter(([, series]) => !(Number(series) > 0))).toEqual([]);
      expect(drawn).toHaveLength(dashboard.panels.length);
      await mkdir(dirname(screenshot), { recursive: true });
      const png = await tab.screenshot({ path: screenshot, fullPage: true });
      expect(png.subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await browser.close();
    }
  }, 300_000);
});
