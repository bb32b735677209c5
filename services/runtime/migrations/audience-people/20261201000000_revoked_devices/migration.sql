-- Devices signed out (issue 40, user.device.revoked.v1): a token whose `sid`
-- is here is refused, as one of an older token version is. A row matters only
-- until the device's tokens expire (`expires_at`); the consumer deletes the
-- expired ones as it adds one, so the table holds the last token lifetime's
-- sign-outs and no more. The person's rows go with their erasure.
CREATE TABLE IF NOT EXISTS "revoked_devices" (
  "device_id" UUID NOT NULL,
  "user_id" UUID NOT NULL,
  "expires_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "revoked_devices_pkey" PRIMARY KEY ("device_id")
);
CREATE INDEX IF NOT EXISTS "revoked_devices_user_id_idx" ON "revoked_devices" ("user_id");
CREATE INDEX IF NOT EXISTS "revoked_devices_expires_at_idx" ON "revoked_devices" ("expires_at");
