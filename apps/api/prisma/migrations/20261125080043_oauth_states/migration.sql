-- CreateTable
CREATE TABLE "oauth_states" (
    "state" TEXT NOT NULL,
    "wallet" TEXT NOT NULL,
    "platform" "StreamPlatform" NOT NULL,
    "code_verifier" TEXT,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "oauth_states_pkey" PRIMARY KEY ("state")
);

-- CreateIndex
CREATE INDEX "oauth_states_expires_at_idx" ON "oauth_states"("expires_at");
