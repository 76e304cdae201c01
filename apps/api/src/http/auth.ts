// Bearer-token middleware. The wallet of a request is always its token's subject; a body or query naming
// another wallet is refused (admins act on other wallets only through the admin routes).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppDeps } from '../deps.ts';
import type { AccessControl } from '../services/access.ts';
import { isAdmin } from '../services/admins.ts';
import { verifyAuthToken } from '../services/auth/tokens.ts';
import { DomainError } from '../errors.ts';

declare global {
  namespace Express {
    interface Request {
      /** Set by requireWallet: the wallet the bearer token was issued to. */
      wallet?: string;
    }
  }
}

type AuthDeps = Pick<AppDeps, 'config' | 'prisma' | 'clock'>;

export function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/** 401 unless the request carries a valid session token; sets `req.wallet`. */
export function requireWallet(deps: AuthDeps): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    req.wallet = verifyAuthToken(deps.config, bearerToken(req), deps.clock);
    next();
  };
}

/** requireWallet, then 403 (with why) unless that wallet has beta access or is an admin. */
export function requireAccess(deps: AuthDeps, access: AccessControl): RequestHandler {
  return async (req, _res, next) => {
    req.wallet = verifyAuthToken(deps.config, bearerToken(req), deps.clock);
    await access.require(req.wallet);
    next();
  };
}

/** requireWallet, then 403 unless that wallet is an admin. */
export function requireAdmin(deps: AuthDeps): RequestHandler {
  return async (req, _res, next) => {
    req.wallet = verifyAuthToken(deps.config, bearerToken(req), deps.clock);
    if (!(await isAdmin(deps, req.wallet))) throw new DomainError('admin_only', 'Admin only');
    next();
  };
}

/** The authenticated wallet (after requireWallet). */
export function walletOf(req: Request): string {
  if (!req.wallet) throw new DomainError('unauthorized', 'Authentication required');
  return req.wallet;
}

/** 403 when a request names a wallet other than its token's. */
export function assertOwnWallet(req: Request, named: unknown): void {
  if (named !== undefined && named !== walletOf(req)) {
    throw new DomainError('wallet_mismatch', 'This request names another wallet than the signed-in one');
  }
}
