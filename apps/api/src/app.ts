import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import { miningProgram } from '@strm/mining-client';
import { API_BASE_PATH } from '@strm/shared';
import compression from 'compression';
import cors from 'cors';
import express from 'express';
import helmet from 'helmet';
import { Server as SocketServer } from 'socket.io';
import type { AppServer } from './socket/contract.ts';
import type { AppDeps } from './deps.ts';
import { apiDocs } from './http/api-docs.ts';
import { errorHandler, notFoundHandler } from './http/error-handler.ts';
import { apiRateLimit, pageRateLimit, memoryStores, redisStores } from './http/rate-limits.ts';
import { overlayPages } from './http/overlay-pages.ts';
import { webApp } from './http/web-app.ts';
import { Lifecycle, trackConnections } from './lifecycle.ts';
import { httpMetrics, requestLogging } from './observability/http.ts';
import { createMetrics, type Metrics, registerMiningMetrics, scrapedGauge } from './observability/metrics.ts';
import { registerOperatorMetrics } from './observability/operator.ts';
import { apiRouter } from './routes/index.ts';
import { faucetNotFound } from './services/faucet.ts';
import { checkHealth } from './services/health.ts';
import { treasuryOf } from './services/rewards/treasury.ts';
import { createServices, type Services } from './services/index.ts';
import type { WalletEventListener } from './services/overlay/feed.ts';
import { endAccessEverywhere } from './socket/access.ts';
import { keepClientAddresses } from './socket/client-address.ts';
import { socketHandshake } from './socket/handshake.ts';
import { SharedSocketCounts, SocketCounts, type WalletSocketCounts } from './socket/limits.ts';
import { engineEvents, tapWalletEvents } from './socket/engine-events.ts';
import { registerMiningSockets, socketEvents } from './socket/index.ts';
import { shareEnds } from './platforms/ends-shared.ts';
import { overlayOutputs, registerOverlaySockets } from './socket/overlay.ts';

export type { AppDeps };

export interface App {
  app: express.Express;
  server: HttpServer;
  io: AppServer;
  metrics: Metrics;
  lifecycle: Lifecycle;
  /** Every service, the engine among them; `start()` before listening, `stop()` before closing the database. */
  services: Services;
}

function contentSecurityPolicy(deps: AppDeps) {
  const chainOrigins = [deps.rpc.rpcUrl, deps.rpc.wsUrl].map((u) => new URL(u).origin);
  return {
    directives: {
      defaultSrc: ["'self'"],
      connectSrc: ["'self'", ...chainOrigins],
      imgSrc: ["'self'", 'data:', 'https:'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      scriptSrc: ["'self'"],
      // The local product is served over plain http on loopback; upgrading would break it.
      upgradeInsecureRequests: deps.config.nodeEnv === 'production' ? [] : null,
    },
  };
}

/** Compares a secret in constant time (as hashes, so their lengths do not leak either). */
function sameSecret(given: string | undefined, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return given !== undefined && timingSafeEqual(digest(given), digest(expected));
}

/** Builds the Express app and Socket.IO server from injected dependencies (no listening). */
export function createApp(deps: AppDeps): App {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  const metrics = deps.metrics ?? createMetrics();
  const lifecycle = deps.lifecycle ?? new Lifecycle(deps.logger);
  app.use(requestLogging(deps.logger));
  app.use(httpMetrics(metrics));
  app.use(
    helmet({
      contentSecurityPolicy: contentSecurityPolicy(deps),
      strictTransportSecurity: config.nodeEnv === 'production',
      // Not helmet's 'same-origin': the Twitch popup opened from the dashboard must keep its opener through
      // Twitch's own pages (/callback posts the token to it; web-app.ts serves /callback without a policy).
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    }),
  );

  // Socket.IO is created first: the services' outputs go through it. It attaches to the server below.
  const io: AppServer = new SocketServer({
    cors: { origin: config.webOrigins },
    transports: ['websocket'],
    maxHttpBufferSize: 16 * 1024,
  });
  // Every event the engine sends a wallet's sockets is also heard by the overlay feed (added by the services).
  const heard = new Set<WalletEventListener>();
  const services = createServices(
    { ...deps, metrics },
    {
      engineEvents: engineEvents(tapWalletEvents(socketEvents(io), heard, deps.logger)),
      hearWalletEvents: (listener) => heard.add(listener),
      overlays: overlayOutputs(io, Boolean(config.redisUrl)),
    },
  );
  const { access } = services;
  // An admin's change that leaves a wallet without access ends it everywhere (session and sockets).
  access.onRevoked((wallet) => endAccessEverywhere(io, services, wallet));
  // REST limits shared by the instances on one database through Redis (REDIS_URL), else per instance.
  let stores = memoryStores;
  // A wallet's sockets, counted by the instances together through Redis (socket/limits.ts), else here.
  let socketCounts: WalletSocketCounts = new SocketCounts(config.sockets.perWallet);
  if (config.redisUrl) {
    const cluster = clusterName(deps);
    const redis = redisStores(config.redisUrl, cluster, deps.logger);
    lifecycle.onClose('rate-limit redis', () => redis.close());
    stores = redis.stores;
    // A platform's webhook may reach any instance, and twice: acted on once by all of them.
    services.platforms.inbox.share(redis.client, `strm:webhooks:${cluster}:`);
    // ...and the session its "ended" concerns may run on another: every instance is told.
    const stopEnds = shareEnds(
      redis.client,
      `strm:platform-ended:${cluster}`,
      [services.platforms.twitch, services.platforms.kick],
      deps.logger,
    );
    lifecycle.onClose('platform ends', async () => stopEnds());
    // YouTube's quota is the Cloud project's: every instance counts into one total.
    services.platforms.youtube.shareQuota(redis.client, `strm:youtube-quota:${cluster}:`);
    const shared = new SharedSocketCounts(redis.client, {
      max: config.sockets.perWallet,
      prefix: `strm:sockets:${cluster}:`,
      instance: randomUUID(),
      reachability: (err) =>
        err === null
          ? deps.logger.info('socket counts: Redis answers again; counting there')
          : deps.logger.warn(
              { err: (err as Error).message },
              'socket counts: Redis unreachable; counting here',
            ),
    });
    lifecycle.onClose('socket counts', () => shared.stop());
    socketCounts = shared;
  }

  const api = express.Router();
  api.use(cors({ origin: config.webOrigins, credentials: false }));
  api.use(apiRateLimit(config.rateLimitPerMinute, stores));
  // The dev faucet exists only beside the project's local chain and never with a treasury keypair
  // (config.faucet); elsewhere its path is unknown (404) whatever the request, answered before the body is
  // even parsed.
  if (!deps.localChainInfo || !config.faucet) api.use('/dev/faucet', () => faucetNotFound());
  api.use(
    express.json({
      limit: '32kb',
      // Webhook signatures (Twitch EventSub) are computed over the raw body.
      verify: (req, _res, buf) => {
        (req as unknown as { rawBody?: Buffer }).rawBody = buf;
      },
    }),
  );
  api.use(apiRouter({ ...deps, metrics }, lifecycle, services, stores));
  api.use(notFoundHandler);
  app.use(API_BASE_PATH, api);

  app.use(compression(), apiDocs());

  app.get('/metrics', async (req, res) => {
    if (config.metricsToken && !sameSecret(req.headers.authorization, `Bearer ${config.metricsToken}`)) {
      res.status(401).json({ error: 'unauthorized', message: 'Bearer METRICS_TOKEN required' });
      return;
    }
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  const pages = overlayPages(config.webDist, config.webOrigins[0]!, services.overlays);
  // Public pages (a card's link is meant to be shared): limited per client address as the API is, in
  // their own count, shared by the instances through Redis.
  app.use(['/card', '/overlay'], pageRateLimit(config.rateLimitPerMinute, stores));
  if (pages) app.use(compression(), pages);
  const web = webApp(config.webDist, config.webOrigins[0]!);
  if (web) app.use(compression(), web);
  app.use(notFoundHandler);
  app.use(errorHandler);

  const server = createServer(app);
  trackConnections(server);
  io.attach(server);
  // Before any namespace's handshake: they limit by this address, and nothing needs the request after.
  keepClientAddresses(io, app.get('trust proxy fn'));
  io.use(
    socketHandshake(deps, {
      access,
      counts: socketCounts,
      store: stores('handshakes'),
    }),
  );
  registerMiningSockets(io, services, deps);
  registerOverlaySockets(io, services.overlays, {
    ...deps,
    access,
    store: stores('overlay-handshakes'),
  });
  scrapedGauge(
    metrics,
    'strm_socket_connections',
    'Socket.IO clients connected to this instance',
    () => io.engine.clientsCount,
  );
  registerMiningMetrics(metrics, deps.prisma);
  scrapedGauge(
    metrics,
    'strm_mining_sessions_owned',
    'Live sessions run by this instance',
    () => services.engine.liveCount,
  );
  registerOperatorMetrics(metrics, {
    prisma: deps.prisma,
    connection: deps.rpc.connection,
    treasury: () => treasuryOf(deps, miningProgram(deps.rpc.connection)),
    health: () => checkHealth(deps),
    sockets: () => new Map([...io._nsps].map(([name, nsp]) => [name, nsp.sockets.size])),
    logger: deps.logger,
  });
  return { app, server, io, metrics, lifecycle, services };
}

/** The instances that belong together: those on one database (as the Redis adapter names them). */
function clusterName(deps: AppDeps): string {
  const url = deps.databaseUrl ?? deps.config.databaseUrl;
  if (!url) return 'embedded';
  const { host, pathname } = new URL(url);
  return `${host}${pathname}`;
}
