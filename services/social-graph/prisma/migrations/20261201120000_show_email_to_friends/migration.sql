-- Issue 40, item 3: the owner's "Show my e-mail to friends" switch, from the
-- user.* snapshots (absent on older ones: off). Friends see the address only when it is on.
ALTER TABLE "users" ADD COLUMN "show_email_to_friends" BOOLEAN NOT NULL DEFAULT false;
