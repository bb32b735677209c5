import { randomUUID } from 'node:crypto';
import { assertSchemaMatchesDatabase } from '@hoptrack/testing';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseUrl, startTestMessaging, type TestMessaging } from './support';

let t: TestMessaging;
beforeAll(async () => {
  t = await startTestMessaging();
});
afterAll(() => t?.close());

it('the migrated database matches schema.prisma', async () => {
  await expect(assertSchemaMatchesDatabase(fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url)), databaseUrl)).resolves.toBeUndefined();
});

it('the database itself keeps one conversation per pair', async () => {
  const [a, b] = [randomUUID(), randomUUID()];
  const pairKey = a < b ? `${a}:${b}` : `${b}:${a}`;
  const now = new Date();
  await t.prisma.conversation.create({ data: { participant1Id: a, participant2Id: b, pairKey, activityAt: now } });
  await expect(t.prisma.conversation.create({ data: { participant1Id: b, participant2Id: a, pairKey, activityAt: now } })).rejects.toThrow(/unique/i);
  expect(await t.prisma.conversation.count({ where: { pairKey } })).toBe(1);
});

it('deleting a conversation deletes its messages', async () => {
  const [a, b] = [randomUUID(), randomUUID()];
  const conversation = await t.prisma.conversation.create({ data: { participant1Id: a, participant2Id: b, pairKey: `${a}:${b}`, activityAt: new Date() } });
  await t.prisma.message.create({ data: { conversationId: conversation.id, senderId: a, recipientId: b, content: 'hi' } });
  await t.prisma.conversation.delete({ where: { id: conversation.id } });
  expect(await t.prisma.message.count({ where: { conversationId: conversation.id } })).toBe(0);
});
