import type { Role, UserSnapshot } from '@hoptrack/proto';
import type { SqlClient } from '../db/sql';
import { upsertNewerSnapshot, type SnapshotRow } from '../db/snapshot';

/** Someone as the audience module knows them: auth's public snapshot, minus the e-mail address. */
export interface Person {
  id: string;
  username: string;
  displayName: string;
  bio: string | null;
  avatar: string | null;
  profilePicture: string | null;
  isProfilePrivate: boolean;
  allowDirectMessages: boolean;
  showOnlineStatus: boolean;
  tokenVersion: number;
  /** The staff roles held (issue 42); empty for nearly everyone. */
  roles: Role[];
  /** Suspended by a moderator until then (issue 42); null: not suspended. */
  suspendedUntil: Date | null;
  /** Banned by a moderator, until an unban. */
  banned: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** auth's version of the account (0: known only from snapshots published before versions): what orders two snapshots. */
  version: number;
}

/** A service's own columns beside the people table's (social-graph keeps the e-mail address for friends). */
export type PersonExtras = (user: UserSnapshot) => Record<string, unknown>;

/** The row a snapshot becomes: every column of the people table. */
export function personRow(user: UserSnapshot): SnapshotRow {
  return {
    id: user.id,
    username: user.username,
    display_name: user.displayName,
    bio: user.bio,
    avatar: user.avatar,
    profile_picture: user.profilePicture,
    is_profile_private: user.isProfilePrivate,
    allow_direct_messages: user.allowDirectMessages,
    show_online_status: user.showOnlineStatus,
    token_version: user.tokenVersion,
    roles: user.roles ?? [],
    suspended_until: user.suspendedUntil ? new Date(user.suspendedUntil) : null,
    banned: user.banned ?? false,
    created_at: new Date(user.createdAt),
    updated_at: new Date(user.updatedAt),
    version: user.version ?? 0,
  };
}

/** Stores a snapshot unless a newer one is there (events come at least once, and may come late). */
export function applyPerson(tx: SqlClient, user: UserSnapshot, extras?: PersonExtras): Promise<void> {
  return upsertNewerSnapshot(tx, 'users', { ...personRow(user), ...extras?.(user) });
}

const PERSON_SELECT = `SELECT "id", "username", "display_name" AS "displayName", "bio", "avatar", "profile_picture" AS "profilePicture",
  "is_profile_private" AS "isProfilePrivate", "allow_direct_messages" AS "allowDirectMessages", "show_online_status" AS "showOnlineStatus",
  "token_version" AS "tokenVersion", "roles",
  "suspended_until" AS "suspendedUntil", "banned", "created_at" AS "createdAt", "updated_at" AS "updatedAt", "version" FROM "users"`;

/** The people of `ids` the module knows, by id (someone not heard of yet is absent). */
export async function peopleByIds(db: SqlClient, ids: readonly string[]): Promise<Map<string, Person>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<Person[]>(`${PERSON_SELECT} WHERE "id" = ANY($1::uuid[])`, unique);
  return new Map(rows.map((row) => [row.id, row]));
}

export async function personById(db: SqlClient, id: string): Promise<Person | null> {
  return (await peopleByIds(db, [id])).get(id) ?? null;
}

/** Whether a person's account is restricted at `now` (issue 42): banned, or suspended until later. Their tokens are refused. */
export function isRestricted(person: { banned?: boolean | null; suspendedUntil?: Date | string | null }, now: number): boolean {
  if (person.banned) return true;
  return person.suspendedUntil != null && new Date(person.suspendedUntil).getTime() > now;
}
