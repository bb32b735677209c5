import { EmptyState } from './EmptyState';

/** The friendly placeholder body of a screen a later issue builds. */
export function ComingSoon({ description }: { description: string }) {
  return <EmptyState title="Coming soon" text={description} />;
}
