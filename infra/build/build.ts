import { build, type Plugin } from 'esbuild';
import { createRequire } from 'node:module';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

/**
 * Prisma's query compiler (WebAssembly, 3.4 MB) comes in a JavaScript module
 * that holds it as one 4.5 MB base64 string. Loaded that way, every process
 * with a database keeps that string twice for good (the module's source and
 * its `wasm` export: Node keeps the module in its module map), 8.7 MiB of V8
 * heap, although the bytes are needed once, when the first query compiles
 * the module (docs/benchmarks.md, 'Process footprint'). So the build writes the
 * bytes to `<dist>/<name>.wasm` and the bundled client reads that file: the
 * same bytes compile to the same module, and are garbage afterwards. Only the
 * bundles change; a process run from source through tsx loads Prisma's module.
 * The generated code is matched exactly: should a Prisma upgrade change it,
 * the build fails here rather than quietly keeping the strings.
 */
const PRISMA_CLIENT_CLASS = /[\\/]src[\\/]generated[\\/]prisma[\\/]internal[\\/]class\.ts$/;
const PRISMA_WASM_IMPORT =
  /const \{ wasm \} = await import\("(@prisma\/client\/runtime\/(query_compiler_\w+_bg\.\w+)\.wasm-base64\.mjs)"\)\s*\n\s*return await decodeBase64AsWasm\(wasm\)/;
/** One write per .wasm file, however many bundles of a folder hold the client. */
const wasmWrites = new Map<string, Promise<void>>();

function prismaWasmFromFile(outfile: string, distDir: string, commonjs: boolean): Plugin {
  return {
    name: 'prisma-wasm-from-file',
    setup(builder) {
      builder.onLoad({ filter: PRISMA_CLIENT_CLASS }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const match = PRISMA_WASM_IMPORT.exec(source);
        if (!match) throw new Error(`${args.path}: Prisma's query compiler import is not the code prismaWasmFromFile (infra/build/build.ts) expects`);
        if (commonjs) throw new Error(`${args.path}: prismaWasmFromFile reads the .wasm beside ESM bundles only (import.meta.url)`);
        const [, specifier, name] = match as unknown as [string, string, string];
        const target = path.join(distDir, `${name}.wasm`);
        if (!wasmWrites.has(target)) {
          // The base64 module the client would have loaded at run time: resolved from the client, as Node would.
          const base64Module = pathToFileURL(createRequire(args.path).resolve(specifier)).href;
          wasmWrites.set(
            target,
            import(base64Module).then(async ({ wasm }: { wasm: string }) => {
              await mkdir(distDir, { recursive: true });
              await writeFile(target, Buffer.from(wasm, 'base64'));
            }),
          );
        }
        await wasmWrites.get(target);
        const relative = path.relative(path.dirname(outfile), target).split(path.sep).join('/');
        const url = JSON.stringify(relative.startsWith('.') ? relative : `./${relative}`);
        const read = `const { readFile } = await import('node:fs/promises')
    return new WebAssembly.Module(await readFile(new URL(${url}, import.meta.url)))`;
        return { contents: source.replace(PRISMA_WASM_IMPORT, read), loader: 'ts' };
      });
    },
  };
}

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
    const outfile = path.join(root, compiledPath(dir, entry));
    return build({
      entryPoints: [path.join(root, dir, entry)],
      outfile,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: commonjs ? 'cjs' : 'esm',
      banner: commonjs ? undefined : { js: ESM_BANNER },
      plugins: [dependenciesExternal, prismaWasmFromFile(outfile, path.join(root, dir, 'dist'), commonjs)],
      // Stack traces in logs name our functions and files: names kept, a map beside
      // each bundle (used with NODE_OPTIONS=--enable-source-maps when debugging).
      keepNames: true,
      sourcemap: 'linked',
      logLevel: 'warning',
    });
  }),
);
process.stdout.write(`build: ${unique.length} bundles in ${Math.round(performance.now() - started)} ms\n`);
