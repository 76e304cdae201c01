-- CreateEnum
CREATE TYPE "AdminActionKind" AS ENUM ('grant_access', 'revoke_access', 'promote_admin', 'demote_admin', 'maintenance_on', 'maintenance_off');

-- CreateTable
CREATE TABLE "admin_actions" (
    "id" SERIAL NOT NULL,
    "actor" TEXT NOT NULL,
    "action" "AdminActionKind" NOT NULL,
    "target" TEXT,
    "detail" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "admin_actions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "admin_actions_created_at_idx" ON "admin_actions"("created_at");
