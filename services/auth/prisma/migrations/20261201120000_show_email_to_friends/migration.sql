-- Issue 40, item 3: the e-mail address is shown to nobody but its owner unless
-- this switch ("Show my e-mail to friends", off by default) lets friends see it.
ALTER TABLE "users" ADD COLUMN "show_email_to_friends" BOOLEAN NOT NULL DEFAULT false;
