import { FEED_PAGE_DEFAULT } from '@hoptrack/proto';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { TOKEN_KEY } from '../../web/src/lib/tokenStorage';
import { launchBrowser, WIDE_VIEWPORT, ZOD_IN_SCRIPT } from '@hoptrack/testing/browser';
import { repoRoot } from '@hoptrack/testing/processes';
import type { BenchContext, Benchmark } from './lib/context';
import { summarise } from './lib/load';
import { compare, round, type Comparison, type Section } from './lib/report';
import { userId } from './seed';

/**
 * 9. Web: what a browser downloads per route of the production build, and
 * how long the signed-in home page takes to show its first feed card, in
 * headless chromium against the seeded stack (the gateway serves web/dist).
 *
 * References, measured in the same run:
 * - bundle: the React runtime alone (react + react-dom/client, built and
 *   minified by the same Vite as the app) — the floor any React app pays, so
 *   "route JS ÷ floor" is what the app adds on top of React;
 * - first render: the feed API call alone, made with fetch() inside the same
 *   page right after the render it is compared with — "render ÷ API" is what
 *   the client (JS download and start, /api/me before the feed, React work)
 *   adds on top of the data it shows.
 */

const DIST = path.join(repoRoot, 'web', 'dist');
const KB = 1000;
/** The first feed card: FeedList's `<ul aria-label="Activities">` of SessionCard articles (the skeleton cards are divs outside it). */
const FEED_CARD = 'ul.session-list[aria-label="Activities"] article.session-card';
/** FeedList's empty state: a reader without sessions would wait forever for a card. */
const FEED_EMPTY = 'section.empty-state[aria-label="No activities yet"]';
/** The request FeedList makes for its first page (sessionsApi.feedPage with FeedPage's default filter). */
const FEED_URL = `/api/sessions?${new URLSearchParams({ filter: 'all', limit: String(FEED_PAGE_DEFAULT) }).toString()}`;
/** The header's avatar button: shown on every route once /api/me accepted the token. */
const SIGNED_IN_MARK = { role: 'button', name: 'Account menu' } as const;
/** A route counts as loaded once no script or stylesheet has finished for this long (lazy chunks load after the entry runs). */
const ASSET_QUIET_MS = 500;
/** After the first card shows, how long requests are still counted (a request per card would start as the cards mount). */
const AFTER_RENDER_MS = 500;
const WAIT_MS = 20_000;

export const benchWeb: Benchmark = async (ctx) => {
  const distAssets = await listDistAssets();
  const floor = await reactFloor();
  ctx.log(`  React floor: ${kb(floor.built.bytes)} kB (${kb(floor.built.gzip)} kB gzip)`);
  const browser = await launchBrowser();
  try {
    const token = await ctx.token(ctx.seed.reader);
    const routes = await measureRoutes(browser, ctx, token);
    const feed = await measureFeed(browser, ctx, token);
    return {
      id: 'web',
      title: 'Web app',
      comparisons: [...bundleComparisons(routes, floor), ...feed.comparisons],
      details: {
        compression: compressionOf(routes),
        routes: routes.map(({ files, ...route }) => ({
          ...route,
          files: files.map((f) => `${f.path} ${f.bytes}`),
          zodFiles: files.filter((f) => f.zod).map((f) => f.path),
        })),
        distAssets,
        reactFloor: floor,
        feed: feed.details,
      },
    };
  } finally {
    await browser.close();
  }
};

// ---------------------------------------------------------------- bundle

interface LoadedFile {
  path: string;
  type: 'script' | 'stylesheet';
  /** Bytes on the wire (the encoded body; equal to `bytes` when the gateway does not compress). */
  transfer: number;
  /** The decoded body. */
  bytes: number;
  /** What the same body is with gzip -6: what a compressing proxy in front would send. */
  gzip: number;
  contentEncoding: string | null;
  /** A script that carries zod (the signed-in first screen should load none: web/e2e/speed.test.ts). */
  zod: boolean;
}

interface RouteLoad {
  route: string;
  /** The header showed the signed-in avatar menu (the token was accepted). */
  signedIn: boolean;
  jsTransfer: number;
  jsBytes: number;
  jsGzip: number;
  cssTransfer: number;
  cssBytes: number;
  cssGzip: number;
  files: LoadedFile[];
}

/**
 * Every route of web/src/app/router.tsx with real parameters from the seed.
 * (There is no /login, /albums or bars route: signing in is a dialog, and an
 * unknown path shows NotFoundPage, measured once as `*`.)
 */
function routesOf(ctx: BenchContext): string[] {
  const { reader, celebrity } = ctx.seed;
  return [
    '/',
    '/forgot-password',
    '/reset-password',
    '/profile',
    '/my-profile',
    '/privacy',
    '/friends',
    '/friends-enhanced',
    '/search',
    '/photos',
    '/discovery',
    // seed.ts names person i `bench_user_<i>`.
    `/profile/bench_user_${celebrity}`,
    `/users/${userId(celebrity)}`,
    `/users/${userId(reader)}/followers`,
    '/messages',
    '/dm',
    '/no-such-page',
  ];
}

/** Loads each route in a fresh context (empty HTTP cache, so every file is downloaded) and sums the JS and CSS it fetched. */
async function measureRoutes(browser: Browser, ctx: BenchContext, token: string): Promise<RouteLoad[]> {
  const loads: RouteLoad[] = [];
  for (const route of routesOf(ctx)) {
    const context = await newSignedInContext(browser, ctx, token);
    try {
      loads.push(await loadRoute(context, route));
    } finally {
      await context.close();
    }
  }
  const signedOut = loads.filter((l) => !l.signedIn).map((l) => l.route);
  if (signedOut.length > 0) ctx.log(`  warning: not signed in on ${signedOut.join(', ')}`);
  const home = loads.find((l) => l.route === '/');
  if (home?.files.some((f) => f.zod)) ctx.log('  warning: the signed-in home page loads zod');
  return loads;
}

async function loadRoute(context: BrowserContext, route: string): Promise<RouteLoad> {
  const page = await context.newPage();
  const pending: Array<Promise<LoadedFile | null>> = [];
  let lastAssetAt = performance.now();
  const onFinished = (request: Request) => {
    const type = request.resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    lastAssetAt = performance.now();
    pending.push(loadedFile(request, type));
  };
  page.on('requestfinished', onFinished);
  await page.goto(route, { waitUntil: 'load' });
  const signedIn = await page
    .getByRole(SIGNED_IN_MARK.role, { name: SIGNED_IN_MARK.name })
    .waitFor({ timeout: WAIT_MS })
    .then(() => true)
    .catch(() => false);
  while (performance.now() - lastAssetAt < ASSET_QUIET_MS) await page.waitForTimeout(100);
  // What finishes after the quiet wait is not counted, and not read either: its body would be
  // read after the context closes, and that rejection, awaited by nobody, would end the run.
  page.off('requestfinished', onFinished);
  const files = (await Promise.all(pending)).filter((f): f is LoadedFile => f !== null);
  const sum = (type: LoadedFile['type'], key: 'transfer' | 'bytes' | 'gzip') =>
    files.filter((f) => f.type === type).reduce((total, f) => total + f[key], 0);
  return {
    route,
    signedIn,
    jsTransfer: sum('script', 'transfer'),
    jsBytes: sum('script', 'bytes'),
    jsGzip: sum('script', 'gzip'),
    cssTransfer: sum('stylesheet', 'transfer'),
    cssBytes: sum('stylesheet', 'bytes'),
    cssGzip: sum('stylesheet', 'gzip'),
    files,
  };
}

async function loadedFile(request: Request, type: LoadedFile['type']): Promise<LoadedFile | null> {
  const response = await request.response();
  if (!response || !response.ok()) return null;
  const [body, sizes] = await Promise.all([response.body(), request.sizes()]);
  return {
    path: new URL(request.url()).pathname,
    type,
    transfer: sizes.responseBodySize,
    bytes: body.length,
    gzip: gzipSync(body).length,
    contentEncoding: response.headers()['content-encoding'] ?? null,
    zod: type === 'script' && ZOD_IN_SCRIPT.test(body.toString('utf8')),
  };
}

/** Whether the gateway compressed anything it sent (it serves web/dist with serve-static, which does not). */
function compressionOf(routes: RouteLoad[]): string {
  const encodings = new Set(routes.flatMap((r) => r.files.map((f) => f.contentEncoding ?? 'none')));
  return [...encodings].join(', ');
}

/**
 * One pair of rows (as sent, and gzip) per distinct set of files: a
 * single-chunk app loads the same files on every route, so one row names
 * them all; once the app is split, each route group gets its own.
 */
function bundleComparisons(routes: RouteLoad[], floor: ReactFloor): Comparison[] {
  const groups = new Map<string, RouteLoad[]>();
  for (const load of routes) {
    const key = load.files
      .map((f) => f.path)
      .sort()
      .join(' ');
    groups.set(key, [...(groups.get(key) ?? []), load]);
  }
  const reference = 'React runtime alone (react + react-dom/client, same Vite build)';
  return [...groups.values()].flatMap((group) => {
    const first = group[0]!;
    const names = group.length === routes.length ? `every route (${routes.length})` : group.map((l) => l.route).join(', ');
    return [
      compare({
        measure: `web JS downloaded, ${names}`,
        value: kb(first.jsTransfer),
        unit: 'kB',
        reference,
        referenceValue: kb(floor.built.bytes),
        note: `+ CSS ${kb(first.cssTransfer)} kB; as the gateway sends it (${first.files[0]?.contentEncoding ?? 'uncompressed'})`,
      }),
      compare({
        measure: `web JS gzip, ${names}`,
        value: kb(first.jsGzip),
        unit: 'kB',
        reference: `${reference}, gzip`,
        referenceValue: kb(floor.built.gzip),
        note: `+ CSS ${kb(first.cssGzip)} kB gzip; what a compressing proxy would send`,
      }),
    ];
  });
}

interface SizedFile {
  file: string;
  bytes: number;
  gzip: number;
}

async function listDistAssets(): Promise<SizedFile[]> {
  const dir = path.join(DIST, 'assets');
  const names = await readdir(dir).catch(() => {
    throw new Error(`no ${dir}: build the web app first (npm run build:web)`);
  });
  return Promise.all(names.sort().map((name) => sized(path.join(dir, name), `assets/${name}`)));
}

async function sized(file: string, label: string): Promise<SizedFile> {
  const body = await readFile(file);
  return { file: label, bytes: body.length, gzip: gzipSync(body).length };
}

interface ReactFloor {
  /** react + react-dom/client rendering one element, bundled and minified by Vite like the app. */
  built: { bytes: number; gzip: number };
  /** The npm production files themselves; since React 19 they ship unminified, so they overstate the floor. */
  cjsFiles: SizedFile[];
}

/**
 * The smallest React app Vite can build: createRoot().render() of one
 * element, from a virtual entry, in memory (nothing is written). Built with
 * web/ as the root so it resolves the same react and react-dom as the app,
 * with Vite's production defaults (the app's vite.config only adds the React
 * plugin, which has no JSX to transform here).
 */
async function reactFloor(): Promise<ReactFloor> {
  // Loaded here, not at the top: the other benchmarks need not pay for Vite.
  const { build } = await import('vite');
  const ENTRY = 'bench-react-floor';
  const RESOLVED = `\0${ENTRY}`;
  // Vite sets NODE_ENV when it is unset; processes the bench starts later inherit the bench's environment.
  const nodeEnv = process.env.NODE_ENV;
  const output = await build({
    configFile: false,
    envDir: false,
    root: path.join(repoRoot, 'web'),
    mode: 'production',
    logLevel: 'silent',
    cacheDir: path.join(tmpdir(), 'hoptrack-bench-vite'),
    plugins: [
      {
        name: 'bench-react-floor',
        resolveId: (id: string) => (id === ENTRY ? RESOLVED : null),
        load: (id: string) =>
          id === RESOLVED
            ? `import { createElement } from 'react';
               import { createRoot } from 'react-dom/client';
               createRoot(document.getElementById('root')).render(createElement('div', null, 'hello'));`
            : null,
      },
    ],
    build: {
      write: false,
      copyPublicDir: false,
      outDir: path.join(tmpdir(), 'hoptrack-bench-react-floor'),
      emptyOutDir: false,
      rolldownOptions: { input: ENTRY },
    },
  }).finally(() => {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  });
  const outputs = Array.isArray(output) ? output : [output];
  let bytes = 0;
  let gzip = 0;
  for (const out of outputs) {
    if (!('output' in out)) throw new Error('the React floor build started a watcher');
    for (const file of out.output) {
      if (file.type !== 'chunk') continue;
      const code = Buffer.from(file.code);
      bytes += code.length;
      gzip += gzipSync(code).length;
    }
  }
  const modules = path.join(repoRoot, 'node_modules');
  const cjsFiles = await Promise.all(
    ['react/cjs/react.production.js', 'react-dom/cjs/react-dom-client.production.js', 'react-dom/cjs/react-dom.production.js', 'scheduler/cjs/scheduler.production.js'].map(
      (file) => sized(path.join(modules, file), file),
    ),
  );
  return { built: { bytes, gzip }, cjsFiles };
}

// ---------------------------------------------------------- first render

/** What the init script records in the page, in ms since navigation start (performance.now()). */
interface FeedProbe {
  /** The first feed card was added to the DOM. */
  cardInDom: number | null;
  /** The animation frame after that: the first frame that paints the card. */
  cardVisible: number | null;
  /** The card lies in the viewport with a size (it is what the reader sees first). */
  cardOnScreen: boolean;
  empty: boolean;
}
type ProbeWindow = Window & { __benchFeedProbe?: FeedProbe };

/**
 * Runs in the page before any of its scripts: signs in (the token in
 * localStorage, as tokenStorage.ts reads it) and watches the DOM for the
 * first feed card. Self-contained: Playwright sends its source to the page.
 */
function installFeedProbe(arg: { key: string; token: string; card: string; empty: string }): void {
  try {
    window.localStorage.setItem(arg.key, arg.token);
  } catch {
    return; // about:blank has no storage; the app's own document comes next
  }
  const probe: FeedProbe = { cardInDom: null, cardVisible: null, cardOnScreen: false, empty: false };
  (window as ProbeWindow).__benchFeedProbe = probe;
  const observer = new MutationObserver(() => {
    if (document.querySelector(arg.empty)) probe.empty = true;
    const card = document.querySelector(arg.card);
    if (!card) return;
    probe.cardInDom = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => {
      probe.cardVisible = performance.now();
      const box = card.getBoundingClientRect();
      probe.cardOnScreen = box.height > 0 && box.top < window.innerHeight;
    });
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** Only signs in (the route loads). */
function installToken(arg: { key: string; token: string }): void {
  try {
    window.localStorage.setItem(arg.key, arg.token);
  } catch {
    // about:blank has no storage
  }
}

async function newSignedInContext(browser: Browser, ctx: BenchContext, token: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: ctx.stack.baseUrl, viewport: WIDE_VIEWPORT });
  context.setDefaultTimeout(WAIT_MS);
  await context.addInitScript(installToken, { key: TOKEN_KEY, token });
  return context;
}

interface FeedRun {
  /** Navigation start → the frame that paints the first card. */
  renderMs: number;
  cardInDomMs: number;
  cardOnScreen: boolean;
  cards: number;
  /** The reference: fetch of the same feed page, with the token, from the same page after the render. */
  apiMs: number;
  apiSessions: number;
  /** The render's own /api/sessions call, from Resource Timing (start → response end). */
  renderApiMs: number | null;
  /** /api requests made from navigation until AFTER_RENDER_MS after the first card, by path (ids as :id). */
  apiRequests: Record<string, number>;
  /** Resource Timing of the first run: when each file and API call started and ended. */
  timeline?: Array<{ path: string; start: number; end: number }>;
}

async function measureFeed(browser: Browser, ctx: BenchContext, token: string): Promise<{ comparisons: Comparison[]; details: Record<string, unknown> }> {
  const runs = ctx.smoke ? 2 : 10;
  // One run first, not counted: the first signed-in load after seeding meets cold service caches and JIT.
  const warm = await feedRun(browser, ctx, token, false);
  const measured: FeedRun[] = [];
  for (let i = 0; i < runs; i++) measured.push(await feedRun(browser, ctx, token, i === 0));
  const render = summarise(measured.map((r) => r.renderMs));
  const api = summarise(measured.map((r) => r.apiMs));
  // The same call inside the render: it shares the gateway with /api/me/stats and /api/messages/unread, on a fresh connection.
  const renderApi = summarise(measured.flatMap((r) => (r.renderApiMs === null ? [] : [r.renderApiMs])));
  const sessionsRequests = measured.map((r) => r.apiRequests['/api/sessions'] ?? 0);
  ctx.log(`  first feed card: p50 ${render.p50.toFixed(0)} ms, p90 ${render.p90.toFixed(0)} ms; feed API alone p50 ${api.p50.toFixed(1)} ms`);
  if (sessionsRequests.some((n) => n !== 1)) ctx.log(`  warning: /api/sessions requests per first render: ${sessionsRequests.join(', ')}`);
  const reference = `feed API alone (fetch ${FEED_URL} in the same page)`;
  const who = `person ${ctx.seed.reader}, ${ctx.seed.readerFriends} friends`;
  return {
    comparisons: (['p50', 'p90'] as const).map((q) =>
      compare({
        measure: `first feed card in headless chromium, ${q} (${who})`,
        value: round(render[q], 1),
        unit: 'ms',
        reference: `${reference}, ${q}`,
        referenceValue: round(api[q], 1),
        note: `navigation start → first frame with a card; ${runs} runs, fresh context each; the render's own feed call took ${q} ${round(renderApi[q], 1)} ms`,
      }),
    ),
    details: {
      runs,
      reader: ctx.seed.reader,
      feedUrl: FEED_URL,
      renderMs: measured.map((r) => round(r.renderMs, 1)),
      cardInDomMs: measured.map((r) => round(r.cardInDomMs, 1)),
      apiMs: measured.map((r) => round(r.apiMs, 1)),
      renderApiMs: measured.map((r) => (r.renderApiMs === null ? null : round(r.renderApiMs, 1))),
      warmUpRenderMs: round(warm.renderMs, 1),
      cardsShown: measured.map((r) => r.cards),
      apiSessionsReturned: measured.map((r) => r.apiSessions),
      cardOnScreen: measured.every((r) => r.cardOnScreen),
      sessionsRequestsPerRender: sessionsRequests,
      apiRequestsFirstRun: measured[0]?.apiRequests,
      timelineFirstRun: measured[0]?.timeline,
    },
  };
}

async function feedRun(browser: Browser, ctx: BenchContext, token: string, withTimeline: boolean): Promise<FeedRun> {
  const context = await browser.newContext({ baseURL: ctx.stack.baseUrl, viewport: WIDE_VIEWPORT });
  try {
    context.setDefaultTimeout(WAIT_MS);
    await context.addInitScript(installFeedProbe, { key: TOKEN_KEY, token, card: FEED_CARD, empty: FEED_EMPTY });
    const page = await context.newPage();
    const apiRequests: Record<string, number> = {};
    let counting = true;
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (!counting || !pathname.startsWith('/api/')) return;
      const key = pathname.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ':id');
      apiRequests[key] = (apiRequests[key] ?? 0) + 1;
    });
    await page.goto('/', { waitUntil: 'commit' });
    await page.waitForFunction(() => {
      const probe = (window as ProbeWindow).__benchFeedProbe;
      return probe !== undefined && (probe.cardVisible !== null || probe.empty);
    });
    await page.waitForTimeout(AFTER_RENDER_MS);
    counting = false;
    const probe = await readProbe(page);
    if (probe.cardVisible === null || probe.cardInDom === null) throw new Error(`the feed of person ${ctx.seed.reader} is empty: nothing to render`);
    const cards = await page.locator(FEED_CARD).count();
    const timing = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => ({ url: entry.name, start: entry.startTime, end: (entry as PerformanceResourceTiming).responseEnd })),
    );
    const renderCall = timing.find((t) => {
      const url = new URL(t.url);
      return url.pathname === '/api/sessions';
    });
    const reference = await page.evaluate(
      async ({ url, bearer }) => {
        const started = performance.now();
        const res = await fetch(url, { headers: { Authorization: `Bearer ${bearer}` }, credentials: 'include' });
        const body: unknown = await res.json();
        const ms = performance.now() - started;
        if (!res.ok) throw new Error(`${url} answered ${res.status}`);
        return { ms, sessions: Array.isArray(body) ? body.length : -1 };
      },
      { url: FEED_URL, bearer: token },
    );
    return {
      renderMs: probe.cardVisible,
      cardInDomMs: probe.cardInDom,
      cardOnScreen: probe.cardOnScreen,
      cards,
      apiMs: reference.ms,
      apiSessions: reference.sessions,
      renderApiMs: renderCall ? renderCall.end - renderCall.start : null,
      apiRequests,
      ...(withTimeline
        ? { timeline: timing.map((t) => ({ path: new URL(t.url).pathname, start: round(t.start, 1), end: round(t.end, 1) })).filter((t) => t.path !== '/') }
        : {}),
    };
  } finally {
    await context.close();
  }
}

async function readProbe(page: Page): Promise<FeedProbe> {
  const probe = await page.evaluate(() => (window as ProbeWindow).__benchFeedProbe ?? null);
  if (!probe) throw new Error('the feed probe was not installed');
  return probe;
}

const kb = (bytes: number) => round(bytes / KB, 1);
