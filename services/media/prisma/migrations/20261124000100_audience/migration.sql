-- The audience module (services/runtime/src/audience) now keeps media's
-- read models: its migrations (20261124000000_audience_people and
-- 20261124000001_audience_graph, applied before this one) brought "users" and
-- "blocks" to the one shape and made "follows". Media's own friend_pairs
-- (accepted friendships, one row per direction) become follows rows.
INSERT INTO "follows" ("follower_id", "followee_id", "is_friend")
SELECT "user_id", "friend_id", true FROM "friend_pairs"
ON CONFLICT ("follower_id", "followee_id") DO UPDATE SET "is_friend" = true;

DROP TABLE "friend_pairs";
