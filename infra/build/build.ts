import { build, type Plugin } from 'esbuild';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMANDS, COMMONJS_DIRS, PROCESSES, compiledPath } from './catalogue';

/**
 * Compiles every process to JavaScript: one bundle per entry with our own
 * workspace packages (runtime, proto, the generated Prisma clients) inside,
 * and every npm dependency left as an import, so the image installs them
 * with `npm ci --omit=dev` and the bundle stays small. Production runs
 * `node <dir>/dist/<entry>.js`; no TypeScript loader in the image.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** npm packages stay outside the bundle; `@hoptrack/*` (our workspaces) go in. */
const dependenciesExternal: Plugin = {
  name: 'dependencies-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@hoptrack/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

// ESM bundles may hold code that calls require (a CommonJS helper of a workspace);
// Node's ESM has none, so the bundle makes one.
const ESM_BANNER = "import { createRequire as __hoptrackCreateRequire } from 'node:module'; const require = __hoptrackCreateRequire(import.meta.url);";

const entries = [...PROCESSES, ...COMMANDS].map(({ dir, entry }) => ({ dir, entry }));
const unique = [...new Map(entries.map((e) => [`${e.dir}/${e.entry}`, e])).values()];
const dirs = [...new Set(unique.map((e) => e.dir))];

const started = performance.now();
await Promise.all(dirs.map((dir) => rm(path.join(root, dir, 'dist'), { recursive: true, force: true })));
await Promise.all(
  unique.map(({ dir, entry }) => {
    const commonjs = COMMONJS_DIRS.includes(dir);
    return build({
      entryPoints: [path.join(root, dir, entry)],
      outfile: path.join(root, compiledPath(dir, entry)),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: commonjs ? 'cjs' : 'esm',
      banner: commonjs ? undefined : { js: ESM_BANNER },
      plugins: [dependenciesExternal],
      // Stack traces in logs name our functions and files: names kept, a map beside
      // each bundle (used with NODE_OPTIONS=--enable-source-maps when debugging).
      keepNames: true,
      sourcemap: 'linked',
      logLevel: 'warning',
    });
  }),
);
process.stdout.write(`build: ${unique.length} bundles in ${Math.round(performance.now() - started)} ms\n`);
