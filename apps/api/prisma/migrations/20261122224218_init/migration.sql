-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "RegistrationPlatform" AS ENUM ('tiktok', 'twitch', 'kick', 'youtube');

-- CreateEnum
CREATE TYPE "StreamPlatform" AS ENUM ('tiktok', 'twitch', 'demo');

-- CreateEnum
CREATE TYPE "ClaimStatus" AS ENUM ('pending', 'paid', 'failed');

-- CreateEnum
CREATE TYPE "TierAction" AS ENUM ('activate', 'deactivate');

-- CreateTable
CREATE TABLE "beta_registrations" (
    "id" SERIAL NOT NULL,
    "wallet" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "platform" "RegistrationPlatform" NOT NULL DEFAULT 'tiktok',
    "platform_username" TEXT NOT NULL,
    "discord_username" TEXT,
    "token_balance" BIGINT NOT NULL,
    "streaming_frequency" TEXT NOT NULL,
    "follower_count" INTEGER NOT NULL,
    "content_type" TEXT NOT NULL,
    "project_interest" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "beta_registrations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "beta_access" (
    "wallet" TEXT NOT NULL,
    "granted_by" TEXT NOT NULL,
    "granted_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "beta_access_pkey" PRIMARY KEY ("wallet")
);

-- CreateTable
CREATE TABLE "admins" (
    "wallet" TEXT NOT NULL,
    "promoted_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "admins_pkey" PRIMARY KEY ("wallet")
);

-- CreateTable
CREATE TABLE "auth_nonces" (
    "nonce" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "issued_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),

    CONSTRAINT "auth_nonces_pkey" PRIMARY KEY ("nonce")
);

-- CreateTable
CREATE TABLE "streamers" (
    "wallet" TEXT NOT NULL,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "timezone_changed_times" INTEGER NOT NULL DEFAULT 0,
    "pending_reward_units" BIGINT NOT NULL DEFAULT 0,
    "tier_name" TEXT,
    "tier_activated_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "streamers_pkey" PRIMARY KEY ("wallet")
);

-- CreateTable
CREATE TABLE "platform_accounts" (
    "id" SERIAL NOT NULL,
    "wallet" TEXT NOT NULL,
    "platform" "StreamPlatform" NOT NULL,
    "username" TEXT NOT NULL,
    "is_verified" BOOLEAN NOT NULL DEFAULT false,
    "verified_at" TIMESTAMP(3),
    "verification_code" TEXT,
    "code_expires_at" TIMESTAMP(3),
    "external_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "platform_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mining_sessions" (
    "id" SERIAL NOT NULL,
    "wallet" TEXT NOT NULL,
    "platform" "StreamPlatform" NOT NULL,
    "tier_name" TEXT NOT NULL,
    "rate_units_per_hour" BIGINT NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "ended_at" TIMESTAMP(3),
    "mined_units" BIGINT NOT NULL DEFAULT 0,
    "end_reason" TEXT,

    CONSTRAINT "mining_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_usage" (
    "wallet" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "seconds_mined" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "daily_usage_pkey" PRIMARY KEY ("wallet","day")
);

-- CreateTable
CREATE TABLE "reward_claims" (
    "id" SERIAL NOT NULL,
    "wallet" TEXT NOT NULL,
    "request_signature" TEXT NOT NULL,
    "amount_units" BIGINT NOT NULL,
    "status" "ClaimStatus" NOT NULL DEFAULT 'pending',
    "payout_signature" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "paid_at" TIMESTAMP(3),

    CONSTRAINT "reward_claims_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tier_events" (
    "signature" TEXT NOT NULL,
    "wallet" TEXT NOT NULL,
    "tier_name" TEXT NOT NULL,
    "action" "TierAction" NOT NULL,
    "amount_units" BIGINT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tier_events_pkey" PRIMARY KEY ("signature")
);

-- CreateTable
CREATE TABLE "tiers" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "deposit_requirement_units" BIGINT NOT NULL,
    "base_multiplier" DOUBLE PRECISION NOT NULL,
    "hourly_base_rate_units" BIGINT NOT NULL,
    "max_multiplier" DOUBLE PRECISION NOT NULL,
    "hourly_max_rate_units" BIGINT NOT NULL,
    "daily_mining_limit_seconds" INTEGER NOT NULL,
    "order_by" INTEGER NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "tiers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "maintenance" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "is_maintenance" BOOLEAN NOT NULL DEFAULT false,
    "message" TEXT NOT NULL,
    "updated_by" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "maintenance_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "beta_registrations_wallet_key" ON "beta_registrations"("wallet");

-- CreateIndex
CREATE INDEX "auth_nonces_expires_at_idx" ON "auth_nonces"("expires_at");

-- CreateIndex
CREATE INDEX "platform_accounts_platform_username_idx" ON "platform_accounts"("platform", "username");

-- CreateIndex
CREATE UNIQUE INDEX "platform_accounts_wallet_platform_key" ON "platform_accounts"("wallet", "platform");

-- CreateIndex
CREATE INDEX "mining_sessions_wallet_started_at_idx" ON "mining_sessions"("wallet", "started_at");

-- CreateIndex
CREATE UNIQUE INDEX "reward_claims_request_signature_key" ON "reward_claims"("request_signature");

-- CreateIndex
CREATE UNIQUE INDEX "reward_claims_payout_signature_key" ON "reward_claims"("payout_signature");

-- CreateIndex
CREATE INDEX "reward_claims_wallet_created_at_idx" ON "reward_claims"("wallet", "created_at");

-- CreateIndex
CREATE INDEX "tier_events_wallet_created_at_idx" ON "tier_events"("wallet", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "tiers_name_key" ON "tiers"("name");

-- CreateIndex
CREATE UNIQUE INDEX "tiers_order_by_key" ON "tiers"("order_by");

-- AddForeignKey
ALTER TABLE "platform_accounts" ADD CONSTRAINT "platform_accounts_wallet_fkey" FOREIGN KEY ("wallet") REFERENCES "streamers"("wallet") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mining_sessions" ADD CONSTRAINT "mining_sessions_wallet_fkey" FOREIGN KEY ("wallet") REFERENCES "streamers"("wallet") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "daily_usage" ADD CONSTRAINT "daily_usage_wallet_fkey" FOREIGN KEY ("wallet") REFERENCES "streamers"("wallet") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reward_claims" ADD CONSTRAINT "reward_claims_wallet_fkey" FOREIGN KEY ("wallet") REFERENCES "streamers"("wallet") ON DELETE CASCADE ON UPDATE CASCADE;
