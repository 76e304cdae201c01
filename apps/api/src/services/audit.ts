import type { AdminActionKind, Prisma } from '../generated/prisma/client.ts';

export type AuditClient = Pick<Prisma.TransactionClient, 'adminAction'>;

/** Records who did what and when; called inside the transaction that makes the change. */
export async function recordAdminAction(
  db: AuditClient,
  entry: { actor: string; action: AdminActionKind; target?: string; detail?: string; at: Date },
): Promise<void> {
  await db.adminAction.create({
    data: {
      actor: entry.actor,
      action: entry.action,
      target: entry.target ?? null,
      detail: entry.detail ?? null,
      createdAt: entry.at,
    },
  });
}

export async function listAdminActions(db: AuditClient, opts: { limit: number }) {
  const rows = await db.adminAction.findMany({ orderBy: { id: 'desc' }, take: opts.limit });
  return rows.map((r) => ({
    id: r.id,
    actor: r.actor,
    action: r.action,
    target: r.target,
    detail: r.detail,
    created_at: r.createdAt.toISOString(),
  }));
}
