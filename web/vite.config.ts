import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';

/**
 * Dev server: http://127.0.0.1:$WEB_PORT (5173) with /api proxied to the
 * gateway ($GATEWAY_URL). Production: `vite build` writes web/dist, which the
 * gateway serves on the same origin as /api.
 */
const webRoot = fileURLToPath(new URL('.', import.meta.url));
const gatewayUrl = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';

/** The script that starts the signed-in first screen's API calls (src/early.ts, lib/earlyRequests.ts). */
const EARLY_ENTRY = 'src/early.ts';

/**
 * index.html runs src/early.ts first, as a module graph of its own: in the
 * build it is bundled alone into assets/early-<hash>.js (no chunk shared with
 * the app, so it runs as soon as its own few hundred bytes have arrived, not
 * once the app's JavaScript has been fetched and compiled); the dev server
 * serves the source. The gateway's Content-Security-Policy allows no inline
 * script, hence a file.
 */
function earlyScript(): Plugin {
  let command: 'build' | 'serve' = 'serve';
  let bundled: { fileName: string; code: string } | undefined;
  return {
    name: 'hoptrack-early-script',
    configResolved(config) {
      command = config.command;
    },
    async buildStart() {
      if (command !== 'build') return;
      const output = await build({
        configFile: false,
        envDir: false,
        root: webRoot,
        logLevel: 'warn',
        build: {
          write: false,
          copyPublicDir: false,
          emptyOutDir: false,
          minify: true,
          lib: { entry: EARLY_ENTRY, formats: ['iife'], name: 'hoptrackEarly', fileName: 'early' },
        },
      });
      const chunks = (Array.isArray(output) ? output : [output]).flatMap((out) => ('output' in out ? out.output : [])).filter((file) => file.type === 'chunk');
      if (chunks.length !== 1) throw new Error(`${EARLY_ENTRY} must build to one file, not ${chunks.length}`);
      const code = chunks[0]!.code;
      const hash = createHash('sha256').update(code).digest('base64url').slice(0, 8);
      bundled = { fileName: `assets/early-${hash}.js`, code };
    },
    generateBundle() {
      if (bundled) this.emitFile({ type: 'asset', fileName: bundled.fileName, source: bundled.code });
    },
    transformIndexHtml: {
      // After Vite's own processing, so the tag is not bundled into the app's entry. Before the app's
      // script and stylesheet: a classic script runs as soon as it has arrived (the browser fetches the
      // app's files meanwhile), always before the app's module script, which waits for the document.
      order: 'post',
      handler(html) {
        const app = html.indexOf('<script type="module"');
        if (app < 0) throw new Error('index.html has no module script to put the early script before');
        const tag = bundled ? `<script src="/${bundled.fileName}"></script>` : `<script type="module" src="/${EARLY_ENTRY}"></script>`;
        return `${html.slice(0, app)}${tag}\n    ${html.slice(app)}`;
      },
    },
  };
}

export default defineConfig({
  root: webRoot,
  plugins: [react(), earlyScript()],
  server: {
    host: '127.0.0.1',
    port: Number(process.env.WEB_PORT ?? 5173),
    strictPort: true,
    proxy: {
      '/api': { target: gatewayUrl, changeOrigin: false },
    },
  },
  preview: {
    host: '127.0.0.1',
    port: Number(process.env.WEB_PORT ?? 5173),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
});
