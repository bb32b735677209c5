import type { SqlClient } from '@hoptrack/runtime';
import { presenceRepository } from '../repositories/presence.repository';

/** Of `ownerIds`, those whose presence `viewerId` may see (the viewer always sees their own). */
export async function visiblePresence(db: SqlClient, viewerId: string, ownerIds: readonly string[]): Promise<Set<string>> {
  if (ownerIds.length === 0) return new Set();
  const visible = new Set(await presenceRepository.visibleOwners(db, viewerId, ownerIds));
  if (ownerIds.includes(viewerId)) visible.add(viewerId);
  return visible;
}
