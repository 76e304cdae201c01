-- Guards Prisma cannot describe in schema.prisma (the migrations test applies this section on top of schema.prisma).
-- One verified owner per platform account also by the platform's own user id (a renamed account keeps it).
CREATE UNIQUE INDEX "platform_accounts_one_verified_external_id" ON "platform_accounts"("platform", "external_id") WHERE "is_verified" AND "external_id" IS NOT NULL;
