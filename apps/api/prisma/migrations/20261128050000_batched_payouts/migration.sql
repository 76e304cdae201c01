-- Several claims may be paid by one transaction (docs/engine.md#payouts): the payout signature is shared by
-- them, no longer unique. The reconciler and support still look claims up by it.
DROP INDEX "reward_claims_payout_signature_key";
CREATE INDEX "reward_claims_payout_signature_idx" ON "reward_claims"("payout_signature");
