import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CONDITION_BOUND_MS } from './bounds';

/**
 * Browser side of the e2e tier: Debian's chromium driven by playwright-core
 * (no downloaded browsers). One browser per test file; every page gets its
 * own context, so localStorage and cookies never leak between tests.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export const WIDE_VIEWPORT = { width: 1280, height: 800 } as const;
/** A phone-sized screen, below the 768px "narrow" breakpoint. */
export const NARROW_VIEWPORT = { width: 390, height: 844 } as const;

/** How long a locator waits for its element: the suite's condition bound (bounds.ts), not a quiet-machine guess. */
export const DEFAULT_WAIT_MS = CONDITION_BOUND_MS;

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

export interface OpenPageOptions {
  /** Origin every relative `goto` resolves against (the stack's baseUrl). */
  baseUrl: string;
  /** Path to open right away; omit to get a blank page. */
  path?: string;
  /** 390x844 instead of the default 1280x800. */
  narrow?: boolean;
  /** Allow geolocation and answer it with this position; without it, the page is never told a position. */
  geolocation?: GeoPosition;
}

export interface GeoPosition {
  latitude: number;
  longitude: number;
}

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /**
   * Uncaught page errors and console.error messages, in order. Chromium's own
   * "Failed to load resource" lines for 4xx/5xx answers are left out: a
   * rejected login is an expected answer, not a bug of the page.
   */
  consoleErrors: string[];
  close(): Promise<void>;
}

/** The browser's own line for a call that failed, with a status or with no answer at all (a test's page.route abort): the screens say what failed. */
const NETWORK_NOISE = /^Failed to load resource: (the server responded with a status of \d{3}|net::ERR_)/;

export async function openPage(browser: Browser, options: OpenPageOptions): Promise<OpenedPage> {
  const context = await browser.newContext({
    baseURL: options.baseUrl,
    viewport: options.narrow ? NARROW_VIEWPORT : WIDE_VIEWPORT,
    ...(options.geolocation ? { geolocation: options.geolocation, permissions: ['geolocation'] } : {}),
  });
  context.setDefaultTimeout(DEFAULT_WAIT_MS);
  const page = await context.newPage();
  const consoleErrors = collectConsoleErrors(page);
  if (options.path !== undefined) await page.goto(options.path);
  return { page, context, consoleErrors, close: () => context.close() };
}

/** Starts collecting the page's errors; the returned array fills as they happen. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error' || NETWORK_NOISE.test(message.text())) return;
    errors.push(`console.error: ${message.text()}`);
  });
  return errors;
}

/**
 * Matches built JavaScript that carries zod: zod 4's core names its schema
 * classes `$ZodType…` and its error `ZodError`, strings a minifier keeps. The
 * signed-in first screen must load none (web/e2e/speed.test.ts, and the web
 * benchmark's route details).
 */
export const ZOD_IN_SCRIPT = /\$ZodType|ZodError/;
