import { rateLimit } from 'express-rate-limit';

const limiter = (limit: number, message: string) =>
  rateLimit({
    windowMs: 60_000,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    message: { error: 'rate_limited', message },
  });

/** Every API request, per client address. */
export const apiRateLimit = (perMinute: number) => limiter(perMinute, 'Too many requests, please slow down');

/** Signing in is stricter: a few attempts per minute per client address. */
export const authRateLimit = (perMinute: number) =>
  limiter(perMinute, 'Too many sign-in attempts, please wait a minute');
