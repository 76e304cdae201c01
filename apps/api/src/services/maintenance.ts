// The maintenance switch (docs/product.md#maintenance). A change is announced on PostgreSQL's
// NOTIFY channel inside the same transaction, so every API process (and a change made with the CLI)
// reaches every socket through socket/maintenance.ts.
import { type MaintenanceStatus, SERVER_MESSAGES } from '@strm/shared';
import type { PrismaClient } from '../db/index.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { recordAdminAction } from './audit.ts';

export const MAINTENANCE_CHANNEL = 'strm_maintenance';

export async function getMaintenance(prisma: PrismaClient): Promise<MaintenanceStatus> {
  const row = await prisma.maintenance.findUnique({ where: { id: 1 } });
  return {
    is_maintenance: row?.isMaintenance ?? false,
    message: row?.message ?? SERVER_MESSAGES.maintenanceDefault,
  };
}

/**
 * getMaintenance that keeps answering while the database is away, with the last status it read (clients
 * poll it every 30 s; an outage must not flip them to an error or to the maintenance page).
 */
export function cachedMaintenance(prisma: PrismaClient): () => Promise<MaintenanceStatus> {
  let last: MaintenanceStatus | undefined;
  return async () => {
    try {
      last = await getMaintenance(prisma);
    } catch (err) {
      if (!last || !isDatabaseUnavailable(err)) throw err;
    }
    return last;
  };
}

export async function setMaintenance(
  prisma: PrismaClient,
  change: { on: boolean; message?: string; actor: string; at: Date },
): Promise<MaintenanceStatus> {
  return prisma.$transaction(async (tx) => {
    const current = await tx.maintenance.findUnique({ where: { id: 1 } });
    const message = change.on
      ? (change.message ?? SERVER_MESSAGES.maintenanceDefault)
      : (current?.message ?? SERVER_MESSAGES.maintenanceDefault);
    await tx.maintenance.upsert({
      where: { id: 1 },
      create: { id: 1, isMaintenance: change.on, message, updatedBy: change.actor },
      update: { isMaintenance: change.on, message, updatedBy: change.actor },
    });
    await recordAdminAction(tx, {
      actor: change.actor,
      action: change.on ? 'maintenance_on' : 'maintenance_off',
      detail: change.on ? message : undefined,
      at: change.at,
    });
    const status: MaintenanceStatus = { is_maintenance: change.on, message };
    await tx.$executeRaw`SELECT pg_notify(${MAINTENANCE_CHANNEL}, ${JSON.stringify(status)})`;
    return status;
  });
}
