import type { SqlClient } from '@hoptrack/runtime';

/**
 * What the inbox keeps of challenges, from the challenges service's events:
 * the title, for the words of an entry ("Alice invited you to “Try 3 new
 * styles”"). A completion and an invitation each carry it, so each refreshes
 * it; the newest event wins, whatever order they arrive in.
 */
export class ChallengeRefs {
  async remember(tx: SqlClient, challengeId: string, title: string, at: Date): Promise<void> {
    await tx.$executeRawUnsafe(
      `INSERT INTO "challenge_refs" (challenge_id, title, updated_at) VALUES ($1::uuid, $2, $3)
       ON CONFLICT (challenge_id) DO UPDATE SET title = EXCLUDED.title, updated_at = EXCLUDED.updated_at
        WHERE challenge_refs.updated_at <= EXCLUDED.updated_at`,
      challengeId,
      title,
      at,
    );
  }
}
