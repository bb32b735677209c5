import type { ComponentType, ReactNode, SVGProps } from 'react';
import { BeerIcon } from './icons';

interface EmptyStateProps {
  title: string;
  text?: ReactNode;
  Icon?: ComponentType<SVGProps<SVGSVGElement>>;
  /** A call to action below the text. */
  children?: ReactNode;
  /** Names the region; defaults to the title. */
  label?: string;
  /** h1 when the state is the whole screen (e.g. 'User Not Found'), h3 inside a titled section. */
  headingLevel?: 1 | 2 | 3;
}

const HEADINGS = { 1: 'h1', 2: 'h2', 3: 'h3' } as const;

/** A friendly panel where a list or screen has nothing to show yet. */
export function EmptyState({ title, text, Icon = BeerIcon, children, label, headingLevel = 2 }: EmptyStateProps) {
  const Heading = HEADINGS[headingLevel];
  return (
    <section className="card empty-state" aria-label={label ?? title}>
      <Icon className="empty-state__icon" width={40} height={40} />
      <Heading className="empty-state__title">{title}</Heading>
      {text && <p className="empty-state__text">{text}</p>}
      {children}
    </section>
  );
}
