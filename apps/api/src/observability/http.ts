import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.ts';
import type { Metrics } from './metrics.ts';

// A request id from the load balancer or proxy is kept when it looks like one; otherwise we make one.
const REQUEST_ID = /^[\w.:-]{1,128}$/;
const quiet = new Set(['/api/v1/health', '/api/v1/health/live', '/api/v1/health/ready', '/metrics']);

/** One structured log line per request, with a request id that is also sent back as X-Request-Id. */
export function requestLogging(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // On the request line and on every line logged through req.log while serving it.
    customProps: (req) => ({ requestId: req.id }),
    autoLogging: { ignore: (req) => quiet.has(req.url?.split('?')[0] ?? '') },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}

/** Request durations by route pattern (never the raw URL, which would make a series per wallet). */
export function httpMetrics(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const end = metrics.httpDuration.startTimer();
    res.once('finish', () => {
      const route = req.route?.path
        ? `${req.baseUrl}${String(req.route.path)}`
        : req.originalUrl.startsWith('/api/')
          ? 'unmatched'
          : 'web';
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
}
