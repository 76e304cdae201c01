-- CreateEnum
CREATE TYPE "AdjustmentStatus" AS ENUM ('applied', 'pending_approval', 'rejected');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "AdminActionKind" ADD VALUE 'pending_reward_adjusted';
ALTER TYPE "AdminActionKind" ADD VALUE 'pending_reward_adjustment_requested';
ALTER TYPE "AdminActionKind" ADD VALUE 'pending_reward_adjustment_approved';
ALTER TYPE "AdminActionKind" ADD VALUE 'pending_reward_adjustment_rejected';

-- AlterTable
ALTER TABLE "pending_reward_adjustments" ADD COLUMN     "decided_at" TIMESTAMP(3),
ADD COLUMN     "decided_by" TEXT,
ADD COLUMN     "status" "AdjustmentStatus" NOT NULL DEFAULT 'applied';

-- CreateIndex
CREATE INDEX "pending_reward_adjustments_admin_wallet_created_at_idx" ON "pending_reward_adjustments"("admin_wallet", "created_at");

-- CreateIndex
CREATE INDEX "pending_reward_adjustments_status_created_at_idx" ON "pending_reward_adjustments"("status", "created_at");
