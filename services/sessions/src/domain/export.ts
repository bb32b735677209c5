import type { ExportPart } from '@hoptrack/proto';
import { exportPeople, fileKeyOf, sessionPhotoOwnerOf } from '@hoptrack/runtime';
import type { Db } from '../db';
import { interactionsRepository } from '../repositories/interactions.repository';
import { sessionsRepository } from '../repositories/sessions.repository';
import { photosOf } from './views';

/** A photo media stored as this person's original (see its internal upload): `uploads/<owner>/<uuid>.webp`. */
const ownedPhotoKey = (stored: string, ownerId: string): string | null => {
  const key = fileKeyOf(stored);
  return key !== null && sessionPhotoOwnerOf(key) === ownerId ? key : null;
};

/**
 * The sessions service's part of a data export (issue 24): every session of
 * the person with all its fields and what others left on it (who liked,
 * commented, reacted, what and when), and the likes, comments and reactions
 * the person left on others' sessions (whose session, what, when). Others
 * appear by id, username and display name only; others' sessions by id.
 * Under the app's block rule (exportPeople): what someone in a block with
 * the person left on their sessions is not in it, and such a person is
 * named by id only where the person's own likes and comments name them.
 * `files`: the person's session photos as media stored them (their S3 key),
 * each as `session-photos/<session id>-<n>.webp` in the zip.
 */
export async function exportSessions(db: Db, userId: string): Promise<Omit<ExportPart, 'service'>> {
  const [sessions, likesGiven, commentsGiven, reactionsGiven] = await Promise.all([
    sessionsRepository.listWithInteractionsByAuthor(db, userId),
    interactionsRepository.likesOnOthersSessions(db, userId),
    interactionsRepository.commentsOnOthersSessions(db, userId),
    interactionsRepository.reactionsOnOthersSessions(db, userId),
  ]);
  const ids = [
    ...sessions.flatMap((s) => [...s.likes, ...s.comments, ...s.reactions].map((r) => r.userId)),
    ...[...likesGiven, ...commentsGiven, ...reactionsGiven].map((r) => r.session.userId),
  ];
  const people = await exportPeople(db, userId, ids);
  const person = people.named;
  const unblocked = <R extends { userId: string }>(rows: R[]) => rows.filter((row) => !people.inBlock(row.userId));

  const files: Array<{ path: string; key: string }> = [];
  const exported = sessions.map((s) => {
    const photos = photosOf(s).map((stored, index) => {
      const key = ownedPhotoKey(stored, userId);
      if (!key) return stored;
      const path = `session-photos/${s.id}-${index + 1}.webp`;
      files.push({ path, key });
      return path;
    });
    return {
      id: s.id,
      title: s.title,
      description: s.description,
      beerCount: s.beerCount,
      durationMinutes: s.duration,
      averageAbv: s.avgAbv,
      beerTypes: s.beerTypes,
      photos,
      location: s.location,
      latitude: s.latitude,
      longitude: s.longitude,
      musicTrack: s.musicTrack,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
      likes: unblocked(s.likes).map((l) => ({ by: person(l.userId), at: l.createdAt.toISOString() })),
      comments: unblocked(s.comments).map((c) => ({ id: c.id, by: person(c.userId), content: c.content, at: c.createdAt.toISOString(), editedAt: c.editedAt?.toISOString() ?? null })),
      reactions: unblocked(s.reactions).map((r) => ({ by: person(r.userId), emoji: r.emoji, at: r.createdAt.toISOString() })),
    };
  });

  return {
    data: {
      sessions: exported,
      onOthersSessions: {
        likes: likesGiven.map((l) => ({ sessionId: l.sessionId, sessionOwner: person(l.session.userId), at: l.createdAt.toISOString() })),
        comments: commentsGiven.map((c) => ({ id: c.id, sessionId: c.sessionId, sessionOwner: person(c.session.userId), content: c.content, at: c.createdAt.toISOString(), editedAt: c.editedAt?.toISOString() ?? null })),
        reactions: reactionsGiven.map((r) => ({ sessionId: r.sessionId, sessionOwner: person(r.session.userId), emoji: r.emoji, at: r.createdAt.toISOString() })),
      },
    },
    files,
  };
}
