import type { ExportPart } from '@hoptrack/proto';
import { exportPeople } from '@hoptrack/runtime';
import type { Db } from '../db';
import { conversationsRepository, type ConversationWithMessages } from '../repositories/conversations.repository';
import { DELETED_USER_NAME, otherParticipant } from './views';

type Message = ConversationWithMessages['messages'][number];

/**
 * Messaging's part of a data export (issue 24): every conversation of the
 * person, the other participant named by id, username and display name (a
 * participant whose account was erased as a deleted user), and every message
 * in it: who sent it, its text, when, and whether and when it was read.
 *
 * A conversation a block separates (either way) is hidden in the app, so the
 * export follows the block rule (exportPeople, issue 39): it keeps only the
 * messages the person sent, without whether the other read them, and names
 * the other by id only.
 */
export async function exportMessages(db: Db, userId: string): Promise<Omit<ExportPart, 'service'>> {
  const conversations = await conversationsRepository.listWithMessagesOf(db, userId);
  const people = await exportPeople(
    db,
    userId,
    conversations.map((c) => otherParticipant(c, userId)),
  );
  const message = (m: Message, separated: boolean) => ({
    id: m.id,
    senderId: m.senderId,
    sentByMe: m.senderId === userId,
    content: m.content,
    messageType: m.messageType,
    attachmentUrl: m.attachmentUrl,
    sentAt: m.createdAt.toISOString(),
    isRead: separated ? null : m.isRead,
    readAt: separated ? null : (m.readAt?.toISOString() ?? null),
  });
  return {
    data: {
      conversations: conversations.map((c) => {
        const otherId = otherParticipant(c, userId);
        const erased = otherId === c.erasedParticipantId;
        const separated = !erased && people.inBlock(otherId);
        const messages = separated ? c.messages.filter((m) => m.senderId === userId) : c.messages;
        const named = erased ? { id: otherId, username: null, displayName: DELETED_USER_NAME } : people.named(otherId);
        return {
          id: c.id,
          with: named,
          ...(separated ? { separatedByBlock: true } : {}),
          startedAt: c.createdAt.toISOString(),
          lastMessageAt: separated ? (messages.at(-1)?.createdAt.toISOString() ?? null) : (c.lastMessageAt?.toISOString() ?? null),
          messages: messages.map((m) => message(m, separated)),
        };
      }),
    },
    files: [],
  };
}
