import {
  type betaAccessResponseSchema,
  fromBaseUnits,
  type registrationSchema,
  type tokenBalanceResponseSchema,
  registrationRequestSchema,
} from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { DomainError } from '../errors.ts';
import { assertOwnWallet, requireWallet, walletOf } from '../http/auth.ts';
import { hasBetaAccess } from '../services/beta-access.ts';
import { createRegistration, getRegistration } from '../services/registrations.ts';
import { tokenBalanceUnits } from '../services/token-balance.ts';

/** Registration, beta access and the token balance of the signed-in wallet. */
export function registrationsRouter(deps: AppDeps): Router {
  const router = Router();
  const signedIn = requireWallet(deps);

  router.post('/registrations', signedIn, async (req, res) => {
    assertOwnWallet(req, (req.body as { wallet?: unknown } | undefined)?.wallet);
    const input = registrationRequestSchema.parse(req.body);
    const registration = await createRegistration(deps, walletOf(req), input, deps.clock.now());
    res.status(201).json(registration satisfies z.input<typeof registrationSchema>);
  });

  router.get('/registrations/me', signedIn, async (req, res) => {
    const registration = await getRegistration(deps.prisma, walletOf(req));
    if (!registration) throw new DomainError('not_registered', 'This wallet has not registered');
    res.json(registration satisfies z.input<typeof registrationSchema>);
  });

  router.get('/beta-access', signedIn, async (req, res) => {
    assertOwnWallet(req, req.query.wallet);
    const hasAccess = await hasBetaAccess(deps.prisma, walletOf(req));
    res.json({ hasAccess } satisfies z.input<typeof betaAccessResponseSchema>);
  });

  router.get('/token-balance', signedIn, async (req, res) => {
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
