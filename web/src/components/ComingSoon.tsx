import { BeerIcon } from './icons';

/** The friendly placeholder body of a screen a later issue builds. */
export function ComingSoon({ description }: { description: string }) {
  return (
    <section className="card empty-state" aria-label="Coming soon">
      <BeerIcon className="empty-state__icon" width={40} height={40} />
      <h2 className="empty-state__title">Coming soon</h2>
      <p className="empty-state__text">{description}</p>
    </section>
  );
}
