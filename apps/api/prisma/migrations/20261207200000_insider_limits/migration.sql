-- AlterEnum
ALTER TYPE "AdjustmentStatus" ADD VALUE 'expired';

-- AlterEnum
ALTER TYPE "AdminActionKind" ADD VALUE 'pending_reward_adjustment_expired';

-- AlterTable
ALTER TABLE "pending_reward_adjustments" ADD COLUMN     "admin_line" TEXT;

-- CreateTable
CREATE TABLE "chain_identity" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "genesis_hash" TEXT NOT NULL,
    "cluster" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chain_identity_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "pending_reward_adjustments_admin_line_created_at_idx" ON "pending_reward_adjustments"("admin_line", "created_at");
