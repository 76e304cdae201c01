// The mining tiers, ascending: served from memory (deposits from the chain's config, the rest from the
// database), serialised once.
import { tierResponseSchema } from '@strm/shared';
import { Router } from 'express';
import { route } from '../http/openapi-route.ts';
import type { Services } from '../services/index.ts';

const getTiers = route({
  method: 'get',
  path: '/tiers',
  tag: 'Mining',
  summary: 'The mining tiers, ascending',
  auth: 'none',
  ok: { schema: tierResponseSchema },
});

export function tiersRouter(services: Pick<Services, 'tiers'>): Router {
  const router = Router();
  getTiers(router, (_req, res) => {
    res.type('application/json').send(services.tiers.json());
  });
  return router;
}
