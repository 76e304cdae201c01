-- AlterEnum
BEGIN;
CREATE TYPE "ClaimStatus_new" AS ENUM ('reserved', 'sent', 'confirmed', 'expired', 'failed');
ALTER TABLE "reward_claims" ALTER COLUMN "status" DROP DEFAULT;
ALTER TABLE "reward_claims" ALTER COLUMN "status" TYPE "ClaimStatus_new" USING ("status"::text::"ClaimStatus_new");
ALTER TYPE "ClaimStatus" RENAME TO "ClaimStatus_old";
ALTER TYPE "ClaimStatus_new" RENAME TO "ClaimStatus";
DROP TYPE "ClaimStatus_old";
ALTER TABLE "reward_claims" ALTER COLUMN "status" SET DEFAULT 'reserved';
COMMIT;

-- DropForeignKey
ALTER TABLE "daily_usage" DROP CONSTRAINT "daily_usage_wallet_fkey";

-- AlterTable
ALTER TABLE "mining_sessions" ADD COLUMN     "accrued_until" TIMESTAMP(3) NOT NULL;

-- AlterTable
ALTER TABLE "streamers" ADD COLUMN     "timezone_set_at" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "reward_claims" DROP COLUMN "paid_at",
ADD COLUMN     "last_valid_block_height" BIGINT,
ADD COLUMN     "payout_transaction" TEXT,
ADD COLUMN     "sent_at" TIMESTAMP(3),
ADD COLUMN     "settled_at" TIMESTAMP(3),
ALTER COLUMN "status" SET DEFAULT 'reserved';

-- DropTable
DROP TABLE "daily_usage";

-- CreateTable
CREATE TABLE "pending_reward_adjustments" (
    "id" SERIAL NOT NULL,
    "wallet" TEXT NOT NULL,
    "admin_wallet" TEXT NOT NULL,
    "previous_units" BIGINT NOT NULL,
    "new_units" BIGINT NOT NULL,
    "reason" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pending_reward_adjustments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "pending_reward_adjustments_wallet_created_at_idx" ON "pending_reward_adjustments"("wallet", "created_at");

-- CreateIndex
CREATE INDEX "mining_sessions_wallet_ended_at_idx" ON "mining_sessions"("wallet", "ended_at");

-- CreateIndex
CREATE INDEX "reward_claims_status_idx" ON "reward_claims"("status");

-- AddForeignKey
ALTER TABLE "pending_reward_adjustments" ADD CONSTRAINT "pending_reward_adjustments_wallet_fkey" FOREIGN KEY ("wallet") REFERENCES "streamers"("wallet") ON DELETE CASCADE ON UPDATE CASCADE;


-- Guards Prisma cannot describe in schema.prisma (the migrations test applies this section on top of schema.prisma).
-- At most one open mining session per wallet, on any platform or tab.
CREATE UNIQUE INDEX "mining_sessions_one_open_per_wallet" ON "mining_sessions"("wallet") WHERE "ended_at" IS NULL;
-- One verified owner per platform account (platform + normalised username).
CREATE UNIQUE INDEX "platform_accounts_one_verified_owner" ON "platform_accounts"("platform", lower("username")) WHERE "is_verified";
-- Money is never negative, and a claim always moves something.
ALTER TABLE "streamers" ADD CONSTRAINT "streamers_pending_reward_non_negative" CHECK ("pending_reward_units" >= 0);
ALTER TABLE "mining_sessions" ADD CONSTRAINT "mining_sessions_mined_non_negative" CHECK ("mined_units" >= 0);
ALTER TABLE "mining_sessions" ADD CONSTRAINT "mining_sessions_rate_non_negative" CHECK ("rate_units_per_hour" >= 0);
ALTER TABLE "reward_claims" ADD CONSTRAINT "reward_claims_amount_positive" CHECK ("amount_units" > 0);
ALTER TABLE "pending_reward_adjustments" ADD CONSTRAINT "pending_reward_adjustments_non_negative" CHECK ("previous_units" >= 0 AND "new_units" >= 0);
