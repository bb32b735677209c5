-- The staff roles a person holds (issue 42: moderator, admin), from auth's
-- snapshots like the token version: each service's role check reads them
-- here (or from its cache), so a revoked role stops working at every service
-- once the revoke's barrier passed. Empty for everyone until auth grants one,
-- and a grant always comes as a newer snapshot.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "roles" TEXT[] NOT NULL DEFAULT '{}';
