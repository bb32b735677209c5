import { Link, useLocation } from 'react-router';
import { ArrowLeftIcon } from './icons';

/** A screen's way back to the list it was opened from ('Back to Friends'). */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className="button button--ghost back-link">
      <ArrowLeftIcon width={18} height={18} />
      <span>{label}</span>
    </Link>
  );
}

/** Where a link came from, carried in its navigation state so the screen it opens leads back there (issue 40). */
export interface CameFrom {
  back: { to: string; label: string };
}

/** The navigation state of a link from `to`, whose back link reads `label` ('Back to Search'). */
export const cameFrom = (to: string, label: string): CameFrom => ({ back: { to, label } });

function isCameFrom(state: unknown): state is CameFrom {
  if (typeof state !== 'object' || state === null || !('back' in state)) return false;
  const { back } = state;
  return typeof back === 'object' && back !== null && 'to' in back && 'label' in back && typeof back.to === 'string' && typeof back.label === 'string' && back.to.startsWith('/');
}

/** The back link of a screen opened from several places: where the link came from, else `fallback`. */
export function BackToWhereFrom({ fallback }: { fallback: CameFrom['back'] }) {
  const { state } = useLocation();
  const back = isCameFrom(state) ? state.back : fallback;
  return <BackLink to={back.to} label={back.label} />;
}
