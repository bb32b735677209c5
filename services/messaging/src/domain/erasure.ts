import { randomUUID } from 'node:crypto';
import type { Prisma } from '../db';
import { pairKey } from './rules';

type Tx = Prisma.TransactionClient;

interface ConversationRow {
  id: string;
  participant1_id: string;
  participant2_id: string;
  erased_participant_id: string | null;
}

/**
 * Messaging's part of an account deletion (issue 24). The person's own
 * messages go. A conversation with someone else stays theirs: it keeps the
 * other's messages, and the erased id (in the conversation and in those
 * messages' recipient) is replaced by a fresh random id that matches no
 * account, recorded as `erased_participant_id` so the API shows a deleted
 * user. A conversation left with nothing of anyone (no message, or both
 * participants erased) goes. Unread counts are computed from the messages,
 * so they follow.
 */
export async function eraseMessagingRows(tx: Tx, userId: string): Promise<void> {
  const conversations = await tx.$queryRawUnsafe<ConversationRow[]>(
    `SELECT id::text AS id, participant1_id::text AS participant1_id, participant2_id::text AS participant2_id,
            erased_participant_id::text AS erased_participant_id
       FROM conversations WHERE participant1_id = $1::uuid OR participant2_id = $1::uuid ORDER BY id FOR UPDATE`,
    userId,
  );
  await tx.$executeRawUnsafe('DELETE FROM messages WHERE sender_id = $1::uuid', userId);
  for (const c of conversations) {
    const other = c.participant1_id === userId ? c.participant2_id : c.participant1_id;
    const [last] = await tx.$queryRawUnsafe<Array<{ id: string; created_at: Date }>>(
      'SELECT id::text AS id, created_at FROM messages WHERE conversation_id = $1::uuid ORDER BY created_at DESC, id DESC LIMIT 1',
      c.id,
    );
    // Nobody left to keep it (the other was erased before), or nothing of the other's in it.
    if (other === userId || other === c.erased_participant_id || !last) {
      await tx.$executeRawUnsafe('DELETE FROM conversations WHERE id = $1::uuid', c.id);
      continue;
    }
    const standIn = randomUUID();
    await tx.$executeRawUnsafe('UPDATE messages SET recipient_id = $2::uuid WHERE conversation_id = $1::uuid AND recipient_id = $3::uuid', c.id, standIn, userId);
    await tx.$executeRawUnsafe(
      `UPDATE conversations
          SET participant1_id = CASE WHEN participant1_id = $3::uuid THEN $2::uuid ELSE participant1_id END,
              participant2_id = CASE WHEN participant2_id = $3::uuid THEN $2::uuid ELSE participant2_id END,
              pair_key = $4, erased_participant_id = $2::uuid,
              last_message_id = $5::uuid, last_message_at = $6::timestamptz, activity_at = $6::timestamptz
        WHERE id = $1::uuid`,
      c.id,
      standIn,
      userId,
      pairKey(other, standIn),
      last.id,
      last.created_at,
    );
  }
}
