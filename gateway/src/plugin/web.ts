import { existsSync } from 'node:fs';
import path from 'node:path';
import serveStatic from 'serve-static';
import { sendJsonError } from './errors';
import { logger } from './logger';
import { labelRoute } from './observe';
import type { GatewayApp } from './types';

/** gateway/, which a relative webDistDir is resolved against. */
const gatewayRoot = path.resolve(__dirname, '../..');

/** Vite names everything under assets/ by content hash: it never changes, so cache it for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and unhashed files must be revalidated, or a deploy would keep serving old asset names. */
const REVALIDATE = 'no-cache';

/**
 * The web app's Content-Security-Policy: scripts, styles, fonts and API calls
 * from this origin only (no inline script, so an injected <script> never
 * runs); images also from https (profile pictures and album art may be
 * elsewhere) and blob:/data: (previews of picked files). React's style
 * attributes need inline styles. No plugins, no framing, no foreign forms.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** What every file of the web app is sent with. */
function securityHeaders(res: { setHeader(name: string, value: string): unknown }): void {
  res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'strict-origin-when-cross-origin');
  res.setHeader('x-frame-options', 'DENY');
}

export function isApiPath(urlPath: string): boolean {
  return urlPath === '/api' || urlPath.startsWith('/api/');
}

/**
 * In production the gateway is the one origin a browser needs: /api goes
 * to the pipelines, every other GET to the built web app. Paths that are
 * not files get index.html so client-side routes survive a reload, except
 * under /assets/, where a missing file is a real 404 (HTML in place of a
 * script only confuses the browser).
 */
export function webAppRoute(app: GatewayApp, webDistDir: string | null | undefined): void {
  if (!webDistDir) {
    logger.info('web app not served: webDistDir is empty');
    return;
  }
  const root = path.resolve(gatewayRoot, webDistDir);
  if (!existsSync(path.join(root, 'index.html'))) {
    logger.info({ webDistDir: root }, 'web app not served: no index.html there (build it with npm run build:web)');
    return;
  }
  const assetsDir = path.join(root, 'assets') + path.sep;
  const files = serveStatic(root, {
    index: false,
    redirect: false,
    cacheControl: false,
    setHeaders: (res, filePath) => {
      res.setHeader('cache-control', filePath.startsWith(assetsDir) ? IMMUTABLE : REVALIDATE);
      securityHeaders(res);
    },
  });
  logger.info({ webDistDir: root }, 'serving the web app');

  app.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isApiPath(req.path)) return next();
    labelRoute(req, 'web');
    files(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (req.path.startsWith('/assets/')) return sendJsonError(res, 404, `No file ${req.path}`, undefined);
      req.url = '/index.html';
      files(req, res, next);
    });
  });
}
