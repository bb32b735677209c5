import type { PublicSession, ReactionSummary, SessionComment, SessionPerson } from '@hoptrack/proto';
import type { CachedPerson } from '@hoptrack/runtime';
import type { BeerSession } from '../db';
import type { CommentRow } from '../repositories/interactions.repository';

export function personView(id: string, user: Omit<CachedPerson, 'id' | 'tokenVersion'> | undefined): SessionPerson {
  return user
    ? { id, username: user.username, displayName: user.displayName, profilePicture: user.profilePicture, avatar: user.avatar }
    : { id, username: 'unknown', displayName: 'Hoptrack user', profilePicture: null, avatar: null };
}

export function commentView(c: CommentRow, user: SessionPerson): SessionComment {
  return { id: c.id, sessionId: c.session_id, userId: c.user_id, content: c.content, createdAt: c.created_at.toISOString(), editedAt: c.edited_at?.toISOString() ?? null, user };
}

/** Reactions grouped by emoji, most used first (ties in the order of the reaction bar's first use). */
export function summarise(rows: Array<{ user_id: string; emoji: string }>, person: (id: string) => SessionPerson): ReactionSummary[] {
  const byEmoji = new Map<string, string[]>();
  for (const row of rows) byEmoji.set(row.emoji, [...(byEmoji.get(row.emoji) ?? []), row.user_id]);
  return [...byEmoji.entries()]
    .map(([emoji, userIds]) => ({ emoji, count: userIds.length, users: userIds.map((id) => ({ id, displayName: person(id).displayName })) }))
    .sort((a, b) => b.count - a.count);
}

/**
 * A row's photos in order. A row written by something that only knows the one
 * `photo` column (the bench seed, rows logged before the list) has an empty
 * list: its photo is the list then.
 */
export function photosOf(s: Pick<BeerSession, 'photo' | 'photos'>): string[] {
  if (s.photos.length > 0) return s.photos;
  return s.photo ? [s.photo] : [];
}

/** The profile's public shape; `photos` already signed for the viewer. */
export function publicSessionView(s: BeerSession, likesCount: number, photos: string[]): PublicSession {
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    createdAt: s.createdAt.toISOString(),
    beerCount: s.beerCount,
    duration: s.duration,
    averageAbv: s.avgAbv,
    location: s.location,
    photos,
    likesCount,
  };
}
