import { SERVER_MESSAGES } from '@strm/shared';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable.ts';
import { DomainError, validationMessage } from '../errors.ts';
import { httpStatusOf } from './error-status.ts';

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new DomainError('not_found', `No route for ${req.method} ${req.path}`));
};

interface HttpParserError {
  type?: string;
  status?: number;
}

/** Maps every error to `{ error, message }` with the right status; internals are logged, never sent. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (err instanceof DomainError) {
    const { retryAfterSeconds } = err.details;
    if (retryAfterSeconds !== undefined) res.set('Retry-After', String(retryAfterSeconds));
    const { status, error } = httpStatusOf(err.code);
    res.status(status).json({ error, message: err.message });
    return;
  }
  if (err instanceof ZodError) {
    res.status(400).json({ error: 'validation_error', message: validationMessage(err) });
    return;
  }
  const parserError = err as HttpParserError;
  if (parserError.type === 'entity.parse.failed') {
    res.status(400).json({ error: 'invalid_json', message: 'Malformed JSON body' });
    return;
  }
  if (parserError.type === 'entity.too.large') {
    res.status(413).json({ error: 'payload_too_large', message: 'Request body too large' });
    return;
  }
  if (typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    res.status(parserError.status).json({ error: 'bad_request', message: 'Bad request' });
    return;
  }
  if (isDatabaseUnavailable(err)) {
    req.log?.warn({ err }, 'database unavailable');
    res.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    res.status(503).json({ error: 'database_unavailable', message: SERVER_MESSAGES.databaseUnavailable });
    return;
  }
  req.log?.error({ err }, 'unhandled error');
  res.status(500).json({ error: 'internal', message: 'Internal server error' });
};
