import type { ChallengePerson } from '@hoptrack/proto';
import { peopleByIds, type SqlClient } from '@hoptrack/runtime';

/** Someone the audience tables have not heard of yet (registered a moment ago). */
const unknownPerson = (id: string): ChallengePerson => ({ id, username: '', displayName: 'Hoptrack user', profilePicture: null, avatar: null });

/** People as challenge screens show them, by id. */
export async function challengePeople(db: SqlClient, ids: readonly string[]): Promise<(id: string) => ChallengePerson> {
  const people = await peopleByIds(db, ids);
  return (id) => {
    const p = people.get(id);
    return p ? { id, username: p.username, displayName: p.displayName, profilePicture: p.profilePicture, avatar: p.avatar } : unknownPerson(id);
  };
}
