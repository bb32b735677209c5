-- Challenge entries (issue 23): the title of each challenge an entry is about,
-- from the CHALLENGES stream's events (prisma/schema.prisma, ChallengeRef).

CREATE TABLE "challenge_refs" (
    "challenge_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "challenge_refs_pkey" PRIMARY KEY ("challenge_id")
);
