// Admin endpoints: registrations, beta access, admins and the audit log. Every change is recorded with
// the acting admin's wallet and the time.
import {
  adminChangeSchema,
  adminListSchema,
  auditListSchema,
  auditQuerySchema,
  betaAccessChangeSchema,
  registrationListQuerySchema,
  registrationListResponseSchema,
  walletParamsSchema,
} from '@strm/shared';
import { Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { requireAdmin, walletOf } from '../http/auth.ts';
import { route } from '../http/openapi-route.ts';
import type { AccessControl } from '../services/access.ts';
import { assertMayChangeAdmins, demoteAdmin, listAdmins, promoteAdmin } from '../services/admins.ts';
import { listAdminActions } from '../services/audit.ts';
import { grantBetaAccess, revokeBetaAccess } from '../services/beta-access.ts';
import { listRegistrations } from '../services/registrations.ts';

const getRegistrations = route({
  method: 'get',
  path: '/admin/registrations',
  tag: 'Admin',
  summary: 'Beta registrations: filters, search, sort and paging',
  auth: 'admin',
  query: registrationListQuerySchema,
  ok: { schema: registrationListResponseSchema },
});

const putBetaAccess = route({
  method: 'put',
  path: '/admin/beta-access/:wallet',
  tag: 'Admin',
  summary: 'Grant beta access (idempotent); audited',
  auth: 'admin',
  params: walletParamsSchema,
  ok: { schema: betaAccessChangeSchema },
});

const deleteBetaAccess = route({
  method: 'delete',
  path: '/admin/beta-access/:wallet',
  tag: 'Admin',
  summary: 'Revoke beta access; audited',
  auth: 'admin',
  params: walletParamsSchema,
  ok: { schema: betaAccessChangeSchema },
  errors: { 404: 'This wallet has no beta access' },
});

const getAdmins = route({
  method: 'get',
  path: '/admin/admins',
  tag: 'Admin',
  summary: 'The admins (ADMIN_WALLETS and promoted)',
  auth: 'admin',
  ok: { schema: adminListSchema },
});

const putAdmin = route({
  method: 'put',
  path: '/admin/admins/:wallet',
  tag: 'Admin',
  summary: 'Promote a wallet to admin (idempotent; by an admin in ADMIN_WALLETS only); audited',
  auth: 'admin',
  params: walletParamsSchema,
  ok: { schema: adminChangeSchema },
  errors: { 403: 'Not an admin listed in ADMIN_WALLETS' },
});

const deleteAdmin = route({
  method: 'delete',
  path: '/admin/admins/:wallet',
  tag: 'Admin',
  summary: 'Demote a promoted admin (by an admin in ADMIN_WALLETS only); audited',
  auth: 'admin',
  params: walletParamsSchema,
  ok: { schema: adminChangeSchema },
  errors: {
    403: 'Not an admin listed in ADMIN_WALLETS',
    404: 'This wallet is not an admin',
    409: 'An admin through ADMIN_WALLETS',
  },
});

const getAudit = route({
  method: 'get',
  path: '/admin/audit',
  tag: 'Admin',
  summary: 'The audit log (who, what, when), newest first',
  auth: 'admin',
  query: auditQuerySchema,
  ok: { schema: auditListSchema },
});

export function adminRouter(
  deps: Pick<AppDeps, 'clock' | 'config' | 'prisma'>,
  access: AccessControl,
): Router {
  const router = Router();
  router.use('/admin', requireAdmin(deps));

  getRegistrations(router, async (req, res) => {
    const page = await listRegistrations(deps.prisma, registrationListQuerySchema.parse(req.query));
    res.json(page satisfies z.input<typeof registrationListResponseSchema>);
  });

  putBetaAccess(router, async (req, res) => {
    const { wallet } = walletParamsSchema.parse(req.params);
    const granted = await grantBetaAccess(deps.prisma, walletOf(req), wallet, deps.clock.now());
    access.forget(wallet);
    res.json(granted satisfies z.input<typeof betaAccessChangeSchema>);
  });

  deleteBetaAccess(router, async (req, res) => {
    const { wallet } = walletParamsSchema.parse(req.params);
    const revoked = await revokeBetaAccess(deps.prisma, walletOf(req), wallet, deps.clock.now());
    // Its live session ends and its sockets close, whichever instances run them.
    await access.changed(wallet);
    res.json(revoked satisfies z.input<typeof betaAccessChangeSchema>);
  });

  getAdmins(router, async (_req, res) => {
    res.json((await listAdmins(deps)) satisfies z.input<typeof adminListSchema>);
  });

  putAdmin(router, async (req, res) => {
    const { wallet } = walletParamsSchema.parse(req.params);
    assertMayChangeAdmins(deps, walletOf(req));
    const promoted = await promoteAdmin(deps, walletOf(req), wallet, deps.clock.now());
    access.forget(wallet);
    res.json(promoted satisfies z.input<typeof adminChangeSchema>);
  });

  deleteAdmin(router, async (req, res) => {
    const { wallet } = walletParamsSchema.parse(req.params);
    assertMayChangeAdmins(deps, walletOf(req));
    const demoted = await demoteAdmin(deps, walletOf(req), wallet, deps.clock.now());
    await access.changed(wallet);
    res.json(demoted satisfies z.input<typeof adminChangeSchema>);
  });

  getAudit(router, async (req, res) => {
    const actions = await listAdminActions(deps.prisma, auditQuerySchema.parse(req.query));
    res.json(actions satisfies z.input<typeof auditListSchema>);
  });

  return router;
}
