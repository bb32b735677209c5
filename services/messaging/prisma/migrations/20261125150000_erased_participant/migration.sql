-- Account deletion (issue 24): when one participant's account is erased, the
-- other keeps the conversation and their own messages, and the erased id is
-- replaced (in the conversation and in the kept messages' recipient) by a
-- fresh random id that matches no account. This column holds that stand-in,
-- so the API shows that participant as a deleted user; null while both
-- participants are people.
ALTER TABLE "conversations" ADD COLUMN "erased_participant_id" UUID;
