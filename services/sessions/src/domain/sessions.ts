import { randomUUID } from 'node:crypto';
import type { CreateSessionForm, EventData, FeedSession, PublicSession, UpdateSessionForm } from '@hoptrack/proto';
import { forbidden, notFound, type Logger, type Outbox } from '@hoptrack/runtime';
import { Prisma, type BeerSession, type Db, type PreparedSql, type PrismaClient } from '../db';
import type { Timelines } from '../feed/timelines';
import { cardOfNewSession } from '../cards/card';
import type { CardRenderer } from '../cards/renderer';
import { interactionsRepository } from '../repositories/interactions.repository';
import { sessionsRepository, type Page } from '../repositories/sessions.repository';
import { photosOf, publicSessionView } from './views';
import { assertCanListSessionsOf, assertCanSeeSession } from './visibility';
import type { PhotoUrls } from '../photos/photo-urls';

export interface SessionsDeps {
  prisma: PrismaClient;
  /** The create's one statement goes by name. */
  prepared: PreparedSql;
  outbox: Outbox;
  /** Tells the relay that events were committed (publishes at once instead of at the next poll). */
  onEventsCommitted: () => void;
  clock: () => Date;
  /** The author's own timeline gets a new session at once; the fan-out worker brings it to everyone else. */
  timelines: Pick<Timelines, 'add' | 'remove'>;
  logger: Logger;
  /** Signs each session photo for the viewer it is shown to. */
  photos: PhotoUrls;
  /** Feed cards: rendered for a viewer, dropped from the read model when a session changes. */
  cards: CardRenderer;
}

/**
 * The facts session.created.v1 and session.updated.v1 carry: always the whole
 * state, built from the row as stored (beerTypes already normalised by the
 * form), so create and update cannot disagree on what a field means.
 * Challenges count styles, places and tracks from beerTypes, location and hasMusic.
 */
const facts = (s: BeerSession): EventData<'session.created.v1'> => ({
  sessionId: s.id,
  userId: s.userId,
  beerCount: s.beerCount,
  duration: s.duration,
  title: s.title,
  beerTypes: s.beerTypes,
  location: s.location,
  // Prisma reads both SQL NULL and a JSON null as null: either way no track was logged.
  hasMusic: s.musicTrack !== null,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
  version: s.version,
});

/** Prisma spells SQL NULL in a JSON column DbNull. */
const jsonTrack = (track: CreateSessionForm['musicTrack']) => (track === null ? Prisma.DbNull : (track as Prisma.InputJsonValue));

/** Logging, editing and deleting beer sessions; each change publishes its event through the outbox. */
export class Sessions {
  constructor(private readonly deps: SessionsDeps) {}

  /**
   * The change is committed and its event is in the outbox: a Redis outage must
   * not turn it into an error (the client would retry and log it twice). The
   * fan-out worker writes the same entry, and a timeline can be rebuilt.
   */
  private async ownTimeline(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (err) {
      this.deps.logger.warn({ err }, "author's timeline not updated (Redis unavailable); the fan-out worker will");
    }
  }

  /** `photos`: the stored paths in the order picked (at most SESSION_PHOTOS_MAX, checked by the form). */
  async create(userId: string, form: CreateSessionForm, photos: string[], requestId?: string): Promise<FeedSession> {
    // Milliseconds, set here: timelines sort by a ms score, and Postgres must agree to the last digit.
    const now = this.deps.clock();
    const session: BeerSession = {
      id: randomUUID(),
      userId,
      title: form.title,
      description: form.description,
      location: form.location,
      latitude: form.latitude,
      longitude: form.longitude,
      beerCount: form.beerCount,
      duration: form.duration,
      avgAbv: form.avgAbv,
      beerTypes: form.beerTypes,
      photo: photos[0] ?? null,
      photos,
      musicTrack: form.musicTrack,
      createdAt: now,
      updatedAt: now,
      // The column's default: the insert (createSql) leaves it to the database.
      version: 1,
    };
    const { row } = this.deps.outbox.prepare('session.created.v1', facts(session), requestId);
    // One statement, sent by name: the session and its event commit together (sessionsRepository.createWithEvent).
    await sessionsRepository.createWithEvent(this.deps.prepared, session, form.musicTrack === null ? null : JSON.stringify(form.musicTrack), row);
    this.deps.onEventsCommitted();
    // The author sees their session in their feed right away (ZADD: the worker adding it again changes nothing).
    await this.ownTimeline(() => this.deps.timelines.add([userId], { sessionId: session.id, authorId: userId, score: now.getTime() }));
    // Nobody has liked, commented or reacted yet: the card needs no read.
    return this.deps.cards.renderNew(userId, cardOfNewSession(session));
  }

  /**
   * Only the owner edits (others 403, or 404 when they cannot even see it).
   * New photos replace the whole list (the picker sends the list it shows);
   * removePhoto=true clears it; neither keeps it.
   */
  async update(userId: string, id: string, form: UpdateSessionForm, photos: string[], requestId?: string): Promise<FeedSession> {
    const session = await this.deps.prisma.$transaction(async (tx) => {
      await this.assertOwner(tx, userId, id);
      const { removePhoto, musicTrack, ...fields } = form;
      const data: Prisma.BeerSessionUpdateInput = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      if (musicTrack !== undefined) data.musicTrack = jsonTrack(musicTrack);
      if (photos.length > 0) {
        data.photo = photos[0] ?? null;
        data.photos = photos;
      } else if (removePhoto === 'true') {
        data.photo = null;
        data.photos = [];
      }
      data.updatedAt = this.deps.clock();
      const updated = await sessionsRepository.update(tx, id, data);
      await this.deps.outbox.enqueue(tx, 'session.updated.v1', facts(updated), requestId);
      return updated;
    });
    this.deps.onEventsCommitted();
    await this.deps.cards.dropAfterCommit(session.id);
    return this.view(userId, session.id);
  }

  async delete(userId: string, id: string, requestId?: string): Promise<void> {
    await this.deps.prisma.$transaction(async (tx) => {
      await this.assertOwner(tx, userId, id);
      await sessionsRepository.delete(tx, id);
      await this.deps.outbox.enqueue(tx, 'session.deleted.v1', { sessionId: id, userId }, requestId);
    });
    this.deps.onEventsCommitted();
    await this.deps.cards.dropAfterCommit(id);
    await this.ownTimeline(() => this.deps.timelines.remove([userId], { sessionId: id, authorId: userId }));
  }

  async get(viewerId: string, id: string): Promise<FeedSession> {
    return this.view(viewerId, id);
  }

  /** The viewer's own sessions, newest first (the profile's My Activities). */
  async mine(userId: string, page: Page): Promise<FeedSession[]> {
    return this.deps.cards.render(userId, await sessionsRepository.listIdsByAuthor(this.deps.prisma, userId, page));
  }

  /** A profile's Beer Sessions tab: private profiles to friends only (403), blocked people see nothing (404). */
  async ofUser(viewerId: string, userId: string, page: Page): Promise<PublicSession[]> {
    await assertCanListSessionsOf(this.deps.prisma, viewerId, userId);
    const rows = await sessionsRepository.listByAuthor(this.deps.prisma, userId, page);
    const likes = await interactionsRepository.countVisibleLikesPerSession(this.deps.prisma, viewerId, rows.map((r) => r.id));
    return rows.map((r) => publicSessionView(r, likes.get(r.id) ?? 0, this.deps.photos.allForViewer(photosOf(r), viewerId)));
  }

  /** Throws 404 (cannot see) or 403 (not the owner) before anything is uploaded. */
  assertCanEdit(userId: string, id: string): Promise<void> {
    return this.assertOwner(this.deps.prisma, userId, id);
  }

  /** One card, if the viewer may see it (404 otherwise, as if it did not exist). */
  private async view(viewerId: string, id: string): Promise<FeedSession> {
    const [view] = await this.deps.cards.render(viewerId, [id]);
    if (!view) throw notFound('Session not found');
    return view;
  }

  private async assertOwner(db: Db, userId: string, id: string): Promise<void> {
    const { userId: owner } = await assertCanSeeSession(db, userId, id);
    if (owner !== userId) throw forbidden('You can only change your own sessions');
  }
}
