import { queryRows, sql, uuid } from '../db/fragment';
import type { SqlClient } from '../db/sql';
import { peopleByIds } from './people';
import { audienceSql, type BlocksSource } from './policy';

/** Someone else, as an export names them: id, username and display name only. */
export interface ExportedPerson {
  id: string;
  username: string | null;
  displayName: string | null;
}

/**
 * The other people an export part names, under the app's block rule (issue
 * 39, finding 8): nothing of one shows to the other, anywhere. Someone in a
 * block with the person, either way, is named by id only (not by their
 * current name), and what they did — their comments, likes, reactions,
 * messages, invitations — is left out of the part; what the person did
 * themselves stays, wherever they did it.
 */
export interface ExportPeople {
  /** Either of the two blocked the other. */
  inBlock(id: string): boolean;
  /** Someone as the export names them: by id only when in a block with the person, or not known here. */
  named(id: string): ExportedPerson;
}

/**
 * The people of `ids` for `userId`'s export part: their names from the
 * audience's people table (or `names`, a service's own copy) and the blocks
 * from the audience's blocks table (or `blocks`, social-graph's source of
 * truth). Two queries, whatever the number of people.
 */
export async function exportPeople(
  db: SqlClient,
  userId: string,
  ids: readonly string[],
  options: { blocks?: BlocksSource; names?: (ids: string[]) => Promise<Map<string, { username: string; displayName: string }>> } = {},
): Promise<ExportPeople> {
  const others = [...new Set(ids)].filter((id) => id !== userId);
  const [blocked, names] = await Promise.all([
    peopleInABlockWith(db, userId, options.blocks),
    options.names ? options.names(others) : peopleByIds(db, others),
  ]);
  return {
    inBlock: (id) => blocked.has(id),
    named: (id) => {
      const known = blocked.has(id) ? undefined : names.get(id);
      return { id, username: known?.username ?? null, displayName: known?.displayName ?? null };
    },
  };
}

/** Everyone `userId` blocked or who blocked `userId`. */
export async function peopleInABlockWith(db: SqlClient, userId: string, blocks?: BlocksSource): Promise<Set<string>> {
  const rows = await queryRows<Array<{ id: string }>>(db, sql`SELECT b.id::text AS "id" FROM (${audienceSql.blockedPeople(uuid(userId), blocks)}) b`);
  return new Set(rows.map((row) => row.id));
}
