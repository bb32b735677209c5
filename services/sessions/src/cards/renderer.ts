import { COMMENTS_IN_CARD, type FeedSession, type ReactionSummary, type SessionPerson } from '@hoptrack/proto';
import type { Logger, PeopleCache, VersionedCache } from '@hoptrack/runtime';
import type { PreparedSql } from '../db';
import { personView } from '../domain/views';
import type { PhotoUrls } from '../photos/photo-urls';
import type { Card } from './card';
import { noViewerBits, viewerBits, type ViewerBits } from './viewer';

/** Likers shown on a card (the spec's three avatars; likeCount has the rest). */
export const LIKES_SHOWN = 3;
/** People named per reaction (besides the viewer, when they chose it); GET /api/sessions/{id}/reactions has them all. */
export const REACTORS_SHOWN = 3;

export interface CardRendererDeps {
  /** The page's one statement goes by name (planned once per connection). */
  sql: PreparedSql;
  cards: VersionedCache<Card>;
  people: PeopleCache;
  photos: PhotoUrls;
  logger: Logger;
}

/**
 * Feed cards for one viewer: the shared cards (Redis, one MGET) with the
 * viewer's own bits (one SQL statement) and the names and pictures of the
 * people shown (Redis, one MGET). A warm page costs one statement.
 */
export class CardRenderer {
  constructor(private readonly deps: CardRendererDeps) {}

  /**
   * The cards of `sessionIds` the viewer may see, in that order. `feed`: for
   * the home feed, which also leaves out the authors the viewer muted.
   */
  async render(viewerId: string, sessionIds: readonly string[], options: { feed?: boolean } = {}): Promise<FeedSession[]> {
    if (sessionIds.length === 0) return [];
    const [bits, cards] = await Promise.all([viewerBits(this.deps.sql, viewerId, sessionIds), this.deps.cards.getMany(sessionIds)]);
    const ordered = sessionIds.flatMap((id) => {
      const card = cards.get(id);
      return card && bits.visible.has(id) && !(options.feed && bits.muted.has(id)) ? [card] : [];
    });
    return this.compose(viewerId, ordered, bits);
  }

  /** A session just created by the viewer: nobody has liked, commented or reacted yet, so nothing is read but the author. */
  async renderNew(viewerId: string, card: Card): Promise<FeedSession> {
    const [view] = await this.compose(viewerId, [card], { ...noViewerBits(), visible: new Set([card.id]) });
    if (!view) throw new Error('a new card always renders');
    return view;
  }

  /** Drops cards from the read model; fails if Redis does (the cards consumer retries the event). */
  invalidate(sessionIds: readonly string[]): Promise<void> {
    return this.deps.cards.invalidate(sessionIds);
  }

  /**
   * The drop a write makes right after its commit, so its author reads the
   * change at once. The change is committed by then, so a Redis fault must not
   * turn it into an error (the client would retry it); the change's event
   * drops the card again (CardsConsumer).
   */
  async dropAfterCommit(sessionId: string): Promise<void> {
    try {
      await this.deps.cards.invalidate([sessionId]);
    } catch (err) {
      this.deps.logger.warn({ err, sessionId }, 'card not dropped now (Redis unavailable); its event will');
    }
  }

  private async compose(viewerId: string, cards: Card[], bits: ViewerBits): Promise<FeedSession[]> {
    const shown: Array<{ card: Card; parts: Parts }> = [];
    const people = new Set<string>();
    for (const card of cards) {
      const parts = partsFor(card, bits, viewerId);
      people.add(card.userId);
      for (const like of parts.likes) people.add(like.userId);
      for (const comment of parts.comments) people.add(comment.userId);
      for (const reaction of parts.reactions) for (const userId of reaction.userIds) people.add(userId);
      shown.push({ card, parts });
    }
    const known = await this.deps.people.getMany([...people]);
    const person = (id: string): SessionPerson => personView(id, known.get(id));
    return shown.map(({ card, parts }) => {
      const photos = this.deps.photos.allForViewer(card.photos ?? (card.photo ? [card.photo] : []), viewerId);
      return {
        id: card.id,
        userId: card.userId,
        user: person(card.userId),
        title: card.title,
        description: card.description,
        location: card.location,
        latitude: card.latitude,
        longitude: card.longitude,
        photo: photos[0] ?? null,
        photos,
        beerCount: card.beerCount,
        duration: card.duration,
        avgAbv: card.avgAbv,
        beerTypes: card.beerTypes,
        musicTrack: card.musicTrack,
        likeCount: parts.likeCount,
        commentCount: parts.commentCount,
        isLikedByCurrentUser: bits.liked.has(card.id),
        likes: parts.likes.map((l) => ({ id: l.id, userId: l.userId, user: person(l.userId) })),
        comments: parts.comments.map((c) => ({ id: c.id, sessionId: card.id, userId: c.userId, content: c.content, createdAt: c.createdAt, editedAt: c.editedAt ?? null, user: person(c.userId) })),
        reactions: parts.reactions.map(
          (r): ReactionSummary => ({ emoji: r.emoji, count: r.count, users: r.userIds.map((id) => ({ id, displayName: person(id).displayName })) }),
        ),
        createdAt: card.createdAt,
        updatedAt: card.updatedAt,
      };
    });
  }
}

interface Parts {
  likeCount: number;
  likes: Card['likes'];
  commentCount: number;
  comments: Card['comments'];
  reactions: Card['reactions'];
}

/** One card's lists and counts as this viewer sees them: hidden people out, the viewer's own reactions in. */
function partsFor(card: Card, bits: ViewerBits, viewerId: string): Parts {
  const visible = (userId: string) => !bits.hidden.has(userId);
  const hiddenReactions = bits.hiddenReactions.get(card.id);
  const mine = bits.reacted.get(card.id);
  const reactions: Card['reactions'] = [];
  const seen = new Set<string>();
  for (const r of card.reactions) {
    seen.add(r.emoji);
    const count = r.count - (hiddenReactions?.get(r.emoji) ?? 0);
    if (count <= 0) continue;
    const others = r.userIds.filter((id) => id !== viewerId && visible(id)).slice(0, REACTORS_SHOWN);
    reactions.push({ emoji: r.emoji, count, userIds: mine?.has(r.emoji) ? [viewerId, ...others] : others });
  }
  // A reaction the card does not know yet (a write racing the read): the viewer's own is never lost.
  for (const emoji of mine ?? []) if (!seen.has(emoji)) reactions.push({ emoji, count: 1, userIds: [viewerId] });
  // Most used first; ties keep the order of first use (a stable sort).
  reactions.sort((a, b) => b.count - a.count);
  const comments = card.comments.filter((c) => visible(c.userId));
  return {
    likeCount: Math.max(0, card.likeCount - (bits.hiddenLikes.get(card.id) ?? 0)),
    likes: card.likes.filter((l) => visible(l.userId)).slice(0, LIKES_SHOWN),
    commentCount: Math.max(0, card.commentCount - (bits.hiddenComments.get(card.id) ?? 0)),
    comments: comments.slice(Math.max(0, comments.length - COMMENTS_IN_CARD)),
    reactions,
  };
}
