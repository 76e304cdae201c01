import { maintenanceStartSchema, maintenanceStatusSchema, maintenanceStopSchema } from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { requireAdmin, walletOf } from '../http/auth.ts';
import { route } from '../http/openapi-route.ts';
import type { Services } from '../services/index.ts';
import { setMaintenance } from '../services/maintenance.ts';

const getMaintenance = route({
  method: 'get',
  path: '/maintenance',
  tag: 'Maintenance',
  summary: 'Whether the platform is in maintenance, and its message',
  auth: 'none',
  ok: { schema: maintenanceStatusSchema },
});

const postStart = route({
  method: 'post',
  path: '/maintenance/start',
  tag: 'Maintenance',
  summary: 'Start maintenance (live sessions stop); audited',
  auth: 'admin',
  body: maintenanceStartSchema,
  ok: { schema: maintenanceStatusSchema },
});

const postStop = route({
  method: 'post',
  path: '/maintenance/stop',
  tag: 'Maintenance',
  summary: 'End maintenance; audited',
  auth: 'admin',
  body: maintenanceStopSchema,
  ok: { schema: maintenanceStatusSchema },
});

export function maintenanceRouter(
  deps: Pick<AppDeps, 'clock' | 'config' | 'prisma'>,
  services: Pick<Services, 'maintenance'>,
): Router {
  const router = Router();
  const admin = requireAdmin(deps);
  const { maintenance } = services;

  getMaintenance(router, async (_req, res) => {
    res.json((await maintenance()) satisfies z.input<typeof maintenanceStatusSchema>);
  });

  postStart(router, admin, async (req, res) => {
    const { message } = maintenanceStartSchema.parse(req.body ?? {});
    const status = await setMaintenance(deps.prisma, {
      on: true,
      message,
      actor: walletOf(req),
      at: deps.clock.now(),
    });
    res.json(status satisfies z.input<typeof maintenanceStatusSchema>);
  });

  postStop(router, admin, async (req, res) => {
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
