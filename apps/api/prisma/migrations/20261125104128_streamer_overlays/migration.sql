-- CreateTable
CREATE TABLE "streamer_overlays" (
    "wallet" TEXT NOT NULL,
    "token_hash" TEXT,
    "token_created_at" TIMESTAMP(3),
    "theme" TEXT NOT NULL DEFAULT 'corner-badge',
    "show_balance" BOOLEAN NOT NULL DEFAULT false,
    "card_slug" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "streamer_overlays_pkey" PRIMARY KEY ("wallet")
);

-- CreateIndex
CREATE UNIQUE INDEX "streamer_overlays_token_hash_key" ON "streamer_overlays"("token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "streamer_overlays_card_slug_key" ON "streamer_overlays"("card_slug");
