-- E-mail verification (issue 24, item 1): the spec's email_verification_token
-- holds the sha256 of the link's token (never the token itself, as for
-- password resets) and this column when the link stops working (24 h).
ALTER TABLE "users" ADD COLUMN "email_verification_expires" TIMESTAMPTZ(6);
CREATE UNIQUE INDEX "users_email_verification_token_key" ON "users"("email_verification_token");
