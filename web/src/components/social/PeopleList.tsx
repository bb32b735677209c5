import type { ReactNode } from 'react';
import { UserCard, type CardUser } from './UserCard';
import { UserList } from './UserList';

/** What a person's card says under the name and offers beside it; the card itself opens their profile. */
export interface PersonCardParts<T extends CardUser> {
  meta?: (person: T) => ReactNode;
  actions: (person: T) => ReactNode;
}

/**
 * One person of a people list: a UserCard that opens /users/{id}. The render
 * function a user list takes (`UserList`, `QueryUserList`), so a list fed by
 * a query (the friends lists) draws its cards the same way as PeopleList.
 */
export function personCard<T extends CardUser>({ meta, actions }: PersonCardParts<T>): (person: T) => ReactNode {
  return (person) => <UserCard key={person.id} user={person} open="link" meta={meta?.(person)} actions={actions(person)} />;
}

/** A named list of people, each a card that opens their profile, with what `meta` and `actions` add. */
export function PeopleList<T extends CardUser>({ label, people, ...parts }: PersonCardParts<T> & { label: string; people: readonly T[] }) {
  return (
    <UserList label={label} items={people}>
      {personCard(parts)}
    </UserList>
  );
}
