import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 37, item 8: the runtime is a platform (http, bus, db, cache, auth,
 * lifecycle) with the audience module (privacy policy, people, revocation,
 * erasure and export) on top of it. The platform imports nothing from the
 * audience: the audience plugs in through the platform's extension points
 * (an inbox guard, migration folders, the bearer check's revocation test).
 */

const src = path.resolve(__dirname, '../src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? tsFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The relative modules a file imports or re-exports, resolved to paths under src. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.{1,2}\/[^']+)'/g)].map((m) => path.resolve(path.dirname(file), m[1] ?? ''));
}

const isAudience = (file: string) => file.startsWith(path.join(src, 'audience'));
/** The package's entry point re-exports both parts; it is neither. */
const isEntry = (file: string) => file === path.join(src, 'index.ts');

describe('the runtime in layers', () => {
  it('reads the imports it checks (the control: the audience module imports the platform)', () => {
    const audience = tsFiles(path.join(src, 'audience'));
    expect(audience.length).toBeGreaterThan(5);
    expect(audience.flatMap(importsOf).some((target) => !isAudience(target))).toBe(true);
  });

  it('the platform imports nothing from the audience module', () => {
    const crossings = tsFiles(src)
      .filter((file) => !isAudience(file) && !isEntry(file))
      .flatMap((file) => importsOf(file).filter(isAudience).map((target) => `${path.relative(src, file)} -> ${path.relative(src, target)}`));
    expect(crossings).toEqual([]);
  });
});
