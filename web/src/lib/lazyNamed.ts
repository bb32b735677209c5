import { lazy, type ComponentType } from 'react';

/**
 * React.lazy for a module's named export: the component becomes its own chunk,
 * fetched the first time it renders. Used for every screen but `/` and for the
 * dialogs a screen opens on demand, so the signed-in first screen loads only
 * what it shows (budget in docs/decisions.md, checked by web/e2e/budget.test.ts).
 */
export function lazyNamed<K extends string, P extends object>(load: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}
