import { createRequire } from 'node:module';
import path from 'node:path';

const requireHere = createRequire(import.meta.url);

/**
 * The folder of one of our workspace packages, found through its
 * node_modules link. Files that ship beside the code (migrations, the
 * catalogue's data) are located this way rather than relative to the
 * calling module: once compiled, a service is one bundled file (dist/…),
 * and `new URL('../x', import.meta.url)` would point somewhere else
 * depending on which bundle the module ended up in.
 */
export function packageDir(name: `@hoptrack/${string}`): string {
  return path.dirname(requireHere.resolve(`${name}/package.json`));
}
