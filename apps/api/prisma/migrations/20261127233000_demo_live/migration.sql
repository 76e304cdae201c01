-- CreateTable
CREATE TABLE "demo_live" (
    "username" TEXT NOT NULL,
    "viewers" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "demo_live_pkey" PRIMARY KEY ("username")
);
