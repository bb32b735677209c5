import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Dev server: http://127.0.0.1:$WEB_PORT (5173) with /api proxied to the
 * gateway ($GATEWAY_URL). Production: `vite build` writes web/dist, which the
 * gateway serves on the same origin as /api.
 */
const webRoot = fileURLToPath(new URL('.', import.meta.url));
const gatewayUrl = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: webRoot,
  plugins: [react()],
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
  },
});
