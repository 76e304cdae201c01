import { existsSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import { join } from 'node:path';
import { API_BASE_PATH } from '@strm/shared';
import cors from 'cors';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import { Server as SocketServer } from 'socket.io';
import type { ChainInfo } from '@strm/local-chain';
import type { Chain } from './chain.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { PrismaClient } from './db/index.ts';
import { errorHandler, notFoundHandler } from './errors.ts';
import type { Logger } from './logger.ts';
import { apiRouter } from './routes/index.ts';

export interface AppDeps {
  config: Config;
  prisma: PrismaClient;
  chain: Chain;
  clock: Clock;
  logger: Logger;
  /** Set when the API runs the project's local chain (enables the faucet). */
  localChain?: ChainInfo;
}

export interface App {
  app: express.Express;
  server: HttpServer;
  io: SocketServer;
}

function contentSecurityPolicy(deps: AppDeps) {
  const chainOrigins = [deps.chain.rpcUrl, deps.chain.wsUrl].map((u) => new URL(u).origin);
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

/** Builds the Express app and Socket.IO server from injected dependencies (no listening). */
export function createApp(deps: AppDeps): App {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(
    pinoHttp({
      logger: deps.logger,
      autoLogging: { ignore: (req) => req.url === '/api/v1/health' },
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(
    helmet({
      contentSecurityPolicy: contentSecurityPolicy(deps),
      strictTransportSecurity: config.nodeEnv === 'production',
    }),
  );

  const api = express.Router();
  api.use(cors({ origin: config.webOrigins, credentials: false }));
  api.use(
    rateLimit({
      windowMs: 60_000,
      limit: config.rateLimitPerMinute,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      message: { error: 'rate_limited', message: 'Too many requests, please slow down' },
    }),
  );
  api.use(express.json({ limit: '32kb' }));
  api.use(apiRouter(deps));
  api.use(notFoundHandler);
  app.use(API_BASE_PATH, api);

  // The built web app on the same origin; every non-API path falls back to index.html (client routes).
  const indexHtml = join(config.webDist, 'index.html');
  if (existsSync(indexHtml)) {
    app.use(express.static(config.webDist, { index: false, maxAge: '1h' }));
    app.get(/^(?!\/api\/|\/socket\.io\/).*/, (_req, res) => res.sendFile(indexHtml));
  }
  app.use(notFoundHandler);
  app.use(errorHandler);

  const server = createServer(app);
  const io = new SocketServer(server, {
    cors: { origin: config.webOrigins },
    transports: ['websocket'],
    maxHttpBufferSize: 16 * 1024,
  });
  return { app, server, io };
}
