import { maintenanceStartSchema, type maintenanceStatusSchema, maintenanceStopSchema } from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { requireAdmin, walletOf } from '../http/auth.ts';
import { cachedMaintenance, setMaintenance } from '../services/maintenance.ts';

export function maintenanceRouter(deps: AppDeps): Router {
  const router = Router();
  const admin = requireAdmin(deps);
  const maintenance = cachedMaintenance(deps.prisma);

  router.get('/maintenance', async (_req, res) => {
    res.json((await maintenance()) satisfies z.input<typeof maintenanceStatusSchema>);
  });

  router.post('/maintenance/start', admin, async (req, res) => {
    const { message } = maintenanceStartSchema.parse(req.body ?? {});
    const status = await setMaintenance(deps.prisma, {
      on: true,
      message,
      actor: walletOf(req),
      at: deps.clock.now(),
    });
    res.json(status satisfies z.input<typeof maintenanceStatusSchema>);
  });

  router.post('/maintenance/stop', admin, async (req, res) => {
    maintenanceStopSchema.parse(req.body ?? {});
    const status = await setMaintenance(deps.prisma, {
      on: false,
      actor: walletOf(req),
      at: deps.clock.now(),
    });
    res.json(status satisfies z.input<typeof maintenanceStatusSchema>);
  });

  return router;
}
