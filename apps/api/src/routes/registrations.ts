import {
  betaAccessResponseSchema,
  fromBaseUnits,
  registrationSchema,
  tokenBalanceResponseSchema,
  registrationRequestSchema,
  walletQuerySchema,
  walletSchema,
} from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { DomainError } from '../errors.ts';
import { assertOwnWallet, requireWallet, walletOf } from '../http/auth.ts';
import { route } from '../http/openapi-route.ts';
import { hasBetaAccess } from '../services/beta-access.ts';
import { createRegistration, getRegistration } from '../services/registrations.ts';
import { tokenBalanceUnits } from '../services/token-balance.ts';

const postRegistration = route({
  method: 'post',
  path: '/registrations',
  tag: 'Beta',
  summary: 'Register the signed-in wallet for the beta (balance read from the chain)',
  auth: 'wallet',
  body: registrationRequestSchema.extend({ wallet: walletSchema.optional() }),
  ok: { schema: registrationSchema, status: 201 },
  errors: { 409: 'This wallet is already registered', 503: 'The chain is unreachable' },
});

const getOwnRegistration = route({
  method: 'get',
  path: '/registrations/me',
  tag: 'Beta',
  summary: "The signed-in wallet's registration",
  auth: 'wallet',
  ok: { schema: registrationSchema },
  errors: { 404: 'This wallet has not registered' },
});

const getBetaAccess = route({
  method: 'get',
  path: '/beta-access',
  tag: 'Beta',
  summary: 'Whether the signed-in wallet has beta access',
  auth: 'wallet',
  query: walletQuerySchema.partial(),
  ok: { schema: betaAccessResponseSchema },
});

const getTokenBalance = route({
  method: 'get',
  path: '/token-balance',
  tag: 'Beta',
  summary: "The signed-in wallet's token balance, read from the chain",
  auth: 'wallet',
  query: walletQuerySchema.partial(),
  ok: { schema: tokenBalanceResponseSchema },
  errors: { 503: 'The chain is unreachable' },
});

/** Registration, beta access and the token balance of the signed-in wallet. */
export function registrationsRouter(deps: Pick<AppDeps, 'clock' | 'config' | 'prisma' | 'rpc'>): Router {
  const router = Router();
  const signedIn = requireWallet(deps);

  postRegistration(router, signedIn, async (req, res) => {
    assertOwnWallet(req, (req.body as { wallet?: unknown } | undefined)?.wallet);
    const input = registrationRequestSchema.parse(req.body);
    const registration = await createRegistration(deps, walletOf(req), input, deps.clock.now());
    res.status(201).json(registration satisfies z.input<typeof registrationSchema>);
  });

  getOwnRegistration(router, signedIn, async (req, res) => {
    const registration = await getRegistration(deps.prisma, walletOf(req));
    if (!registration) throw new DomainError('not_registered', 'This wallet has not registered');
    res.json(registration satisfies z.input<typeof registrationSchema>);
  });

  getBetaAccess(router, signedIn, async (req, res) => {
    assertOwnWallet(req, req.query.wallet);
    const hasAccess = await hasBetaAccess(deps.prisma, walletOf(req));
    res.json({ hasAccess } satisfies z.input<typeof betaAccessResponseSchema>);
  });

  getTokenBalance(router, signedIn, async (req, res) => {
    assertOwnWallet(req, req.query.wallet);
    const wallet = walletOf(req);
    const units = await tokenBalanceUnits(deps.rpc, wallet);
    res.json({
      wallet,
      balance: fromBaseUnits(units),
      units: units.toString(),
    } satisfies z.input<typeof tokenBalanceResponseSchema>);
  });

  return router;
}
