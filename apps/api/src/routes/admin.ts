// Admin endpoints: registrations, beta access, admins and the audit log. Every change is recorded with
// the acting admin's wallet and the time.
import { auditQuerySchema, registrationListQuerySchema, walletSchema } from '@strm/shared';
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { requireAdmin, walletOf } from '../http/auth.ts';
import type { AccessControl } from '../services/access.ts';
import { demoteAdmin, listAdmins, promoteAdmin } from '../services/admins.ts';
import { listAdminActions } from '../services/audit.ts';
import { grantBetaAccess, revokeBetaAccess } from '../services/beta-access.ts';
import { listRegistrations } from '../services/registrations.ts';

const walletParams = z.object({ wallet: walletSchema });

export function adminRouter(deps: AppDeps, access: AccessControl): Router {
  const router = Router();
  router.use('/admin', requireAdmin(deps));

  router.get('/admin/registrations', async (req, res) => {
    res.json(await listRegistrations(deps.prisma, registrationListQuerySchema.parse(req.query)));
  });

  router.put('/admin/beta-access/:wallet', async (req, res) => {
    const { wallet } = walletParams.parse(req.params);
    const granted = await grantBetaAccess(deps.prisma, walletOf(req), wallet, deps.clock.now());
    access.forget(wallet);
    res.json(granted);
  });

  router.delete('/admin/beta-access/:wallet', async (req, res) => {
    const { wallet } = walletParams.parse(req.params);
    const revoked = await revokeBetaAccess(deps.prisma, walletOf(req), wallet, deps.clock.now());
    // Its live session ends and its sockets close, whichever instances run them.
    await access.changed(wallet);
    res.json(revoked);
  });

  router.get('/admin/admins', async (_req, res) => {
    res.json(await listAdmins(deps));
  });

  router.put('/admin/admins/:wallet', async (req, res) => {
    const { wallet } = walletParams.parse(req.params);
    const promoted = await promoteAdmin(deps, walletOf(req), wallet, deps.clock.now());
    access.forget(wallet);
    res.json(promoted);
  });

  router.delete('/admin/admins/:wallet', async (req, res) => {
    const { wallet } = walletParams.parse(req.params);
    const demoted = await demoteAdmin(deps, walletOf(req), wallet, deps.clock.now());
    await access.changed(wallet);
    res.json(demoted);
  });

  router.get('/admin/audit', async (req, res) => {
    res.json(await listAdminActions(deps.prisma, auditQuerySchema.parse(req.query)));
  });

  return router;
}
