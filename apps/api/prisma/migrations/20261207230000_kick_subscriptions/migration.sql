-- CreateTable
CREATE TABLE "kick_subscriptions" (
    "broadcaster_id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "kick_subscriptions_pkey" PRIMARY KEY ("broadcaster_id")
);
