-- An erasure's second pass (issue 38, item 3): a write authenticated just
-- before the deletion can commit after a service's first pass. Once every
-- service reported the first pass (first_pass_at), and the grace has passed,
-- auth sends user.deleted.v1 again (resweep_at): every service erases once
-- more what such a write left, and the streams are scrubbed after that pass.
ALTER TABLE "erasures"
  ADD COLUMN "first_pass_at" TIMESTAMPTZ(6),
  ADD COLUMN "resweep_at" TIMESTAMPTZ(6);
