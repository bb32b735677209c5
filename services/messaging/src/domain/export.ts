import type { ExportPart } from '@hoptrack/proto';
import type { Db } from '../db';
import { conversationsRepository } from '../repositories/conversations.repository';
import { DELETED_USER_NAME, loadPeople, otherParticipant } from './views';

/**
 * Messaging's part of a data export (issue 24): every conversation of the
 * person, the other participant named by id, username and display name (a
 * participant whose account was erased as a deleted user), and every message
 * in it: who sent it, its text, when, and whether and when it was read.
 */
export async function exportMessages(db: Db, userId: string): Promise<Omit<ExportPart, 'service'>> {
  const conversations = await conversationsRepository.listWithMessagesOf(db, userId);
  const people = await loadPeople(
    db,
    conversations.map((c) => otherParticipant(c, userId)),
  );
  return {
    data: {
      conversations: conversations.map((c) => {
        const otherId = otherParticipant(c, userId);
        const known = otherId === c.erasedParticipantId ? undefined : people.get(otherId);
        return {
          id: c.id,
          with: {
            id: otherId,
            username: known?.username ?? null,
            displayName: otherId === c.erasedParticipantId ? DELETED_USER_NAME : (known?.displayName ?? null),
          },
          startedAt: c.createdAt.toISOString(),
          lastMessageAt: c.lastMessageAt?.toISOString() ?? null,
          messages: c.messages.map((m) => ({
            id: m.id,
            senderId: m.senderId,
            sentByMe: m.senderId === userId,
            content: m.content,
            messageType: m.messageType,
            attachmentUrl: m.attachmentUrl,
            sentAt: m.createdAt.toISOString(),
            isRead: m.isRead,
            readAt: m.readAt?.toISOString() ?? null,
          })),
        };
      }),
    },
    files: [],
  };
}
