-- A mail job's link is a reset link or a verification link (issue 24): the column is named for both.
ALTER TABLE "mail_jobs" RENAME COLUMN "reset_url" TO "link";
