-- AlterTable
ALTER TABLE "mining_sessions" ADD COLUMN     "owner_instance" TEXT;

-- CreateTable
CREATE TABLE "api_instances" (
    "id" TEXT NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "api_instances_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "mining_sessions_owner_instance_idx" ON "mining_sessions"("owner_instance");
