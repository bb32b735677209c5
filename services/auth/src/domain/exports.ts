import { randomUUID } from 'node:crypto';
import { EXPORT_COOLDOWN_MS, EXPORT_DEFAULT_TTL_MS, EXPORT_MESSAGES, type DataExport, type EventData } from '@hoptrack/proto';
import { FileSignature, HttpError, notFound, tooManyRequests, type Outbox } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import type { DataExport as ExportRow } from '../generated/prisma/client';
import { dataExportsRepository as dataExports } from '../repositories/data-exports.repository';
import { mailJobsRepository as mailJobs } from '../repositories/mail-jobs.repository';
import { usersRepository as users } from '../repositories/users.repository';
import { toCurrentUser } from './user-views';
import { toModerationAction } from './account-actions';
import { moderationActionsRepository as moderationActions } from '../repositories/moderation-actions.repository';

export interface DataExportsDeps {
  prisma: PrismaClient;
  outbox: Outbox;
  onEventsCommitted: () => void;
  onMailQueued: () => void;
  clock: () => Date;
  publicWebUrl: string;
  /** Signs the zip's media URL: the download link is good for minutes, the export until media's `expiresAt`. */
  files: FileSignature;
}

const HISTORY = 5;

/**
 * A person's data exports (issue 24): the request starts the services'
 * contributions (user.export.requested.v1), media assembles the zip and
 * reports it (user.export.ready.v1), the person is mailed, and the download
 * is a short-lived signed link to the zip. One export at a time: asking while
 * one is being prepared answers that one; and one a day (EXPORT_COOLDOWN_MS,
 * issue 39): each is a copy of every original photo and a mail, so asking
 * again sooner answers 429 with when. A new export's zip replaces the
 * earlier ones (media deletes them; here they read as expired).
 */
export class DataExports {
  constructor(private readonly deps: DataExportsDeps) {}

  async request(userId: string, requestId: string): Promise<{ created: boolean; view: DataExport }> {
    const { prisma, outbox } = this.deps;
    const result = await prisma.$transaction(async (tx) => {
      // Serialises two requests of the same person: the second finds the first pending.
      await users.lock(tx, userId);
      const pending = await dataExports.findPending(tx, userId);
      if (pending) return { created: false, row: pending };
      const [latest] = await dataExports.listLatest(tx, userId, 1);
      const wait = latest ? latest.requestedAt.getTime() + EXPORT_COOLDOWN_MS - this.deps.clock().getTime() : 0;
      if (wait > 0) throw tooManyRequests(EXPORT_MESSAGES.cooldown, wait / 1000);
      const row = await dataExports.create(tx, { id: randomUUID(), userId, requestedAt: this.deps.clock() });
      await outbox.enqueue(tx, 'user.export.requested.v1', { exportId: row.id, userId }, requestId);
      return { created: true, row };
    });
    if (result.created) this.deps.onEventsCommitted();
    return { created: result.created, view: this.view(result.row) };
  }

  async list(userId: string): Promise<DataExport[]> {
    const rows = await dataExports.listLatest(this.deps.prisma, userId, HISTORY);
    return rows.map((row) => this.view(row));
  }

  /** The signed link to the zip; someone else's export or an unknown id is not found. */
  async downloadUrl(userId: string, id: string): Promise<string> {
    const row = await dataExports.findOwned(this.deps.prisma, id, userId);
    if (!row) throw notFound('Export not found');
    const view = this.view(row);
    if (view.status === 'pending' || !row.zipKey) throw new HttpError(409, 'Your export is still being prepared.');
    if (view.status === 'expired') throw new HttpError(410, 'This export has expired. Request a new one.');
    return this.deps.files.url(row.zipKey, userId);
  }

  /**
   * Media's report: ready from now until media deletes the zip; once (a
   * redelivery changes nothing). The person's earlier ready exports expire
   * now: media replaced their zips with this one.
   */
  async markReady(data: EventData<'user.export.ready.v1'>): Promise<void> {
    const now = this.deps.clock();
    const queued = await this.deps.prisma.$transaction(async (tx) => {
      const marked = await dataExports.markReady(tx, data.exportId, data.userId, {
        readyAt: now,
        expiresAt: data.expiresAt ? new Date(data.expiresAt) : new Date(now.getTime() + EXPORT_DEFAULT_TTL_MS),
        zipKey: data.key,
        size: data.size,
      });
      if (marked !== 1) return false;
      await dataExports.expireReadyBesides(tx, data.userId, data.exportId, now);
      const email = await users.findEmailById(tx, data.userId);
      if (email === null) return false;
      const link = `${this.deps.publicWebUrl.replace(/\/$/, '')}/account`;
      await mailJobs.create(tx, { id: randomUUID(), kind: 'export-ready', recipient: email, link });
      return true;
    });
    if (queued) this.deps.onMailQueued();
  }

  /** Auth's own part: the account as the person sees it on /api/me, their privacy switches, and moderators' actions concerning them (issue 42). */
  async part(userId: string): Promise<{ data: unknown }> {
    const user = await users.findById(this.deps.prisma, userId);
    if (!user) return { data: null };
    const { isProfilePrivate, allowDirectMessages, showOnlineStatus, showEmailToFriends, socialMediaPublic, ...profile } = toCurrentUser(user);
    // As the person reads them (GET /api/me/actions): the action and its reason, never the moderator's identity.
    const actions = await moderationActions.allConcerning(this.deps.prisma, userId);
    return {
      data: {
        profile,
        privacy: { isProfilePrivate, allowDirectMessages, showOnlineStatus, showEmailToFriends, socialMediaPublic },
        moderation: actions.map(toModerationAction),
      },
    };
  }

  private view(row: ExportRow): DataExport {
    const expired = row.status === 'ready' && row.expiresAt !== null && row.expiresAt <= this.deps.clock();
    return {
      id: row.id,
      status: expired ? 'expired' : row.status === 'ready' ? 'ready' : 'pending',
      requestedAt: row.requestedAt.toISOString(),
      readyAt: row.readyAt?.toISOString() ?? null,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      size: row.size,
    };
  }
}
