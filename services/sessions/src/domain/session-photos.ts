import type { SessionPhotoPage } from '@hoptrack/proto';
import type { PrismaClient } from '../db';
import type { PhotoUrls } from '../photos/photo-urls';
import { sessionPhotosRepository } from '../repositories/session-photos.repository';
import type { Page } from '../repositories/sessions.repository';
import { assertCanListSessionsOf } from './visibility';

/**
 * A person's session photos as one list (issue 40: the Photos screen's
 * built-in 'Session photos' album). Read from the sessions themselves, so
 * what a session holds is what is listed (an edit or a delete changes it at
 * once), under the very rule of their sessions list; each URL is signed for
 * the viewer, and media re-checks that viewer's right on every fetch.
 */
export class SessionPhotos {
  constructor(private readonly deps: { prisma: PrismaClient; photos: PhotoUrls }) {}

  async of(viewerId: string, userId: string, page: Page): Promise<SessionPhotoPage> {
    await assertCanListSessionsOf(this.deps.prisma, viewerId, userId);
    const [total, rows] = await Promise.all([
      sessionPhotosRepository.count(this.deps.prisma, userId),
      sessionPhotosRepository.list(this.deps.prisma, userId, page),
    ]);
    return {
      total,
      photos: rows.map((row) => ({
        sessionId: row.session_id,
        sessionTitle: row.title,
        url: this.deps.photos.forViewer(row.path, viewerId) ?? row.path,
        createdAt: row.created_at.toISOString(),
      })),
    };
  }
}
