import { randomUUID } from 'node:crypto';
import type { Prisma } from '../db';
import { conversationsRepository } from '../repositories/conversations.repository';
import { messagesRepository } from '../repositories/messages.repository';
import { pairKey } from './rules';

type Tx = Prisma.TransactionClient;

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
  const conversations = await conversationsRepository.lockAllOf(tx, userId);
  await messagesRepository.deleteSentBy(tx, userId);
  for (const c of conversations) {
    const other = c.participant1_id === userId ? c.participant2_id : c.participant1_id;
    const last = await messagesRepository.findLatestIn(tx, c.id);
    // Nobody left to keep it (the other was erased before), or nothing of the other's in it.
    if (other === userId || other === c.erased_participant_id || !last) {
      await conversationsRepository.delete(tx, c.id);
      continue;
    }
    const standIn = randomUUID();
    await messagesRepository.readdress(tx, c.id, userId, standIn);
    await conversationsRepository.replaceErasedParticipant(tx, c.id, { userId, standIn, pairKey: pairKey(other, standIn), last });
  }
}
