// The demo platform (local configurations only): the signed-in wallet's demo account and its live toggle.
import {
  demoAccountRequestSchema,
  demoAccountResponseSchema,
  demoLiveRequestSchema,
  demoLiveResponseSchema,
} from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { requireAccess, walletOf } from '../http/auth.ts';
import { route } from '../http/openapi-route.ts';
import { createDemoAccount, verifiedDemoAccount } from '../platforms/demo-account.ts';
import type { Services } from '../services/index.ts';

const postDemoAccount = route({
  method: 'post',
  path: '/dev/demo/account',
  tag: 'Development',
  summary: 'Create or rename the demo platform account (verified at once)',
  auth: 'wallet',
  body: demoAccountRequestSchema,
  ok: { schema: demoAccountResponseSchema },
  errors: { 409: 'The username belongs to another wallet' },
  only: 'demo',
});

const putDemoLive = route({
  method: 'put',
  path: '/dev/demo/live',
  tag: 'Development',
  summary: 'Put the demo account on or off air',
  auth: 'wallet',
  body: demoLiveRequestSchema,
  ok: { schema: demoLiveResponseSchema },
  errors: { 404: 'No demo account yet' },
  only: 'demo',
});

export function demoRouter(
  deps: Pick<AppDeps, 'clock' | 'config' | 'prisma'>,
  services: Pick<Services, 'platforms' | 'engine' | 'streamers' | 'access'>,
): Router {
  const router = Router();
  const { demo } = services.platforms;
  if (!demo) return router;
  const { engine } = services;
  const signedIn = requireAccess(deps, services.access);
  const demoDeps = {
    streamers: services.streamers,
    clock: deps.clock,
    isLive: (wallet: string) => engine.liveAnywhere(wallet),
  };

  postDemoAccount(router, signedIn, async (req, res) => {
    const { username } = demoAccountRequestSchema.parse(req.body ?? {});
    const account = await createDemoAccount(demoDeps, walletOf(req), username);
    res.json({
      success: true,
      platform: 'demo',
      username: account.username,
      isVerified: true,
    } satisfies z.input<typeof demoAccountResponseSchema>);
  });

  putDemoLive(router, signedIn, async (req, res) => {
    const { live, viewers } = demoLiveRequestSchema.parse(req.body ?? {});
    const account = await verifiedDemoAccount(demoDeps, walletOf(req));
    res.json({
      success: true,
      username: account.username,
      ...(await demo.set(account.username, live, viewers)),
    } satisfies z.input<typeof demoLiveResponseSchema>);
  });
  return router;
}
