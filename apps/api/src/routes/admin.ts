// Admin endpoints: registrations, beta access, admins and the audit log. Every change is recorded with
// the acting admin's wallet and the time.
import {
  type adminChangeSchema,
  type adminListSchema,
  type auditListSchema,
  auditQuerySchema,
  type betaAccessChangeSchema,
  registrationListQuerySchema,
  type registrationListResponseSchema,
  walletParamsSchema,
} from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { requireAdmin, walletOf } from '../http/auth.ts';
import type { AccessControl } from '../services/access.ts';
import { demoteAdmin, listAdmins, promoteAdmin } from '../services/admins.ts';
import { listAdminActions } from '../services/audit.ts';
import { grantBetaAccess, revokeBetaAccess } from '../services/beta-access.ts';
import { listRegistrations } from '../services/registrations.ts';

export function adminRouter(deps: AppDeps, access: AccessControl): Router {
  const router = Router();
  router.use('/admin', requireAdmin(deps));

  router.get('/admin/registrations', async (req, res) => {
    const page = await listRegistrations(deps.prisma, registrationListQuerySchema.parse(req.query));
    res.json(page satisfies z.input<typeof registrationListResponseSchema>);
  });

  router.put('/admin/beta-access/:wallet', async (req, res) => {
    const { wallet } = walletParamsSchema.parse(req.params);
    const granted = await grantBetaAccess(deps.prisma, walletOf(req), wallet, deps.clock.now());
    access.forget(wallet);
    res.json(granted satisfies z.input<typeof betaAccessChangeSchema>);
  });

  router.delete('/admin/beta-access/:wallet', async (req, res) => {
    const { wallet } = walletParamsSchema.parse(req.params);
    const revoked = await revokeBetaAccess(deps.prisma, walletOf(req), wallet, deps.clock.now());
    // Its live session ends and its sockets close, whichever instances run them.
    await access.changed(wallet);
    res.json(revoked satisfies z.input<typeof betaAccessChangeSchema>);
  });

  router.get('/admin/admins', async (_req, res) => {
    res.json((await listAdmins(deps)) satisfies z.input<typeof adminListSchema>);
  });

  router.put('/admin/admins/:wallet', async (req, res) => {
    const { wallet } = walletParamsSchema.parse(req.params);
    const promoted = await promoteAdmin(deps, walletOf(req), wallet, deps.clock.now());
    access.forget(wallet);
    res.json(promoted satisfies z.input<typeof adminChangeSchema>);
  });

  router.delete('/admin/admins/:wallet', async (req, res) => {
    const { wallet } = walletParamsSchema.parse(req.params);
    const demoted = await demoteAdmin(deps, walletOf(req), wallet, deps.clock.now());
    await access.changed(wallet);
    res.json(demoted satisfies z.input<typeof adminChangeSchema>);
  });

  router.get('/admin/audit', async (req, res) => {
    const actions = await listAdminActions(deps.prisma, auditQuerySchema.parse(req.query));
    res.json(actions satisfies z.input<typeof auditListSchema>);
  });

  return router;
}
