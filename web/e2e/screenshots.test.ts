import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { NARROW_VIEWPORT, WIDE_VIEWPORT, type GeoPosition } from '@hoptrack/testing/browser';
import { repoRoot } from '@hoptrack/testing/processes';
import { DENVER, useE2eStack } from './support';
import { buildDemoWorld, type DemoWorld } from './world';
import { CONDITION_BOUND_MS } from '@hoptrack/testing/bounds';

/**
 * The main screens, desktop and phone, as the README shows them
 * (docs/screenshots/), so a person can look at the product before installing
 * it. Every run renders each one and checks the picture (a PNG of the screen's
 * size showing the screen's key element); only `UPDATE_SCREENSHOTS=1` writes
 * them to docs/screenshots, so a test run leaves the tree as it found it.
 * Each shot first waits for the screen's real content.
 */
const stack = useE2eStack();
const OUT_DIR = path.join(repoRoot, 'docs/screenshots');
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';

interface Shot {
  name: string;
  path: string;
  signedIn: boolean;
  /** The browser's position, for screens that ask for it. */
  geolocation?: GeoPosition;
  /** Waits for the content that makes the screen worth looking at; may also open a dialog. */
  ready(page: Page, world: DemoWorld): Promise<void>;
  /** What the picture must show: the screen's heading, or the dialog or chat it is about. */
  key(page: Page, world: DemoWorld): Locator;
}

const h1 = (name: string) => (page: Page) => page.getByRole('heading', { level: 1, name, exact: true });

const SHOTS: Shot[] = [
  {
    name: 'welcome',
    path: '/',
    signedIn: false,
    ready: (page) => page.getByRole('heading', { level: 1, name: 'Welcome to Hoptrack' }).waitFor(),
    key: h1('Welcome to Hoptrack'),
  },
  {
    name: 'feed',
    path: '/',
    signedIn: true,
    ready: async (page) => {
      await page.getByRole('article', { name: 'Sour flight at the taproom', exact: true }).getByRole('img', { name: /photo/i }).first().waitFor();
      await imagesLoaded(page);
    },
    key: h1('Activity Feed'),
  },
  {
    name: 'log-session',
    path: '/',
    signedIn: true,
    ready: async (page) => {
      await page.getByRole('article').first().waitFor();
      await page.getByRole('button', { name: 'Log Session', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Log Beer Session' });
      await dialog.getByLabel('Title', { exact: true }).fill('Saturday brewery tour');
      await dialog.getByLabel('Beers', { exact: true }).fill('4');
    },
    key: (page) => page.getByRole('dialog', { name: 'Log Beer Session' }),
  },
  {
    name: 'profile',
    path: '/profile',
    signedIn: true,
    ready: async (page) => {
      await page.getByText('Friday pints with the team', { exact: true }).waitFor();
      await imagesLoaded(page);
    },
    key: h1('My Profile'),
  },
  {
    name: 'friends',
    path: '/friends',
    signedIn: true,
    ready: async (page, world) => {
      await page.getByRole('tab', { name: /Requests/ }).click();
      await page.getByText(world.sam.displayName, { exact: true }).first().waitFor();
    },
    key: h1('Friends'),
  },
  {
    name: 'discovery',
    path: '/discovery',
    signedIn: true,
    geolocation: DENVER,
    ready: async (page) => {
      await page.getByRole('button', { name: 'Use my location', exact: true }).click();
      await page.getByRole('list', { name: 'Bars near you', exact: true }).getByRole('listitem').first().waitFor();
    },
    key: h1('Discovery'),
  },
  {
    name: 'messages',
    path: '/messages',
    signedIn: true,
    ready: async (page, world) => {
      await page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: new RegExp(world.jonas.displayName) }).click();
      await page.getByText('Always. I’ll bring the hops 🍺', { exact: true }).waitFor();
    },
    key: (page, world) => page.getByRole('region', { name: `Chat with ${world.jonas.displayName}`, exact: true }),
  },
  {
    name: 'notifications',
    path: '/notifications',
    signedIn: true,
    // The demo world's likes, comments and requests reach the inbox by events: wait for the first entry.
    ready: (page) => page.getByRole('list', { name: 'Notifications', exact: true }).getByRole('listitem').first().waitFor(),
    key: h1('Notifications'),
  },
  {
    name: 'challenges',
    path: '/challenges',
    signedIn: true,
    // Today's challenges are published by the service's job (or on this first read): wait for a card.
    ready: (page) => page.getByRole('list', { name: "Today's challenges", exact: true }).getByRole('article').first().waitFor(),
    key: h1('Challenges'),
  },
  {
    name: 'photos',
    path: '/photos',
    signedIn: true,
    ready: async (page) => {
      await page.getByRole('link', { name: 'Summer taprooms', exact: true }).click();
      await expect.poll(() => page.getByRole('list', { name: 'Photos' }).getByRole('listitem').count()).toBe(4);
      await imagesLoaded(page);
    },
    key: h1('Summer taprooms'),
  },
  {
    name: 'account',
    path: '/account',
    signedIn: true,
    ready: (page) => page.getByRole('button', { name: 'Request my data', exact: true }).waitFor(),
    key: h1('Account Settings'),
  },
];

/**
 * Every <img> inside the screen has finished loading (thumbnails are made by a
 * worker, so allow it time); lazy images below the fold never start, so they are left out.
 */
async function imagesLoaded(page: Page): Promise<void> {
  const inView = () =>
    Array.from(document.images)
      .filter((img) => img.getBoundingClientRect().top < window.innerHeight)
      .every((img) => img.complete && img.naturalWidth > 0);
  await expect.poll(() => page.evaluate(inView), { timeout: CONDITION_BOUND_MS }).toBe(true);
}

/** Width and height from a PNG's header (signature, then the IHDR chunk); throws if it is no PNG. */
function pngSize(png: Buffer): { width: number; height: number } {
  const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (png.length < 24 || !png.subarray(0, 8).equals(SIGNATURE) || png.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error(`not a PNG (${png.length} bytes)`);
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The element is drawn inside the viewport, so the picture shows it. */
async function expectInPicture(key: Locator, viewport: { width: number; height: number }, where: string): Promise<void> {
  await key.waitFor();
  const box = await key.boundingBox();
  expect(box, `${where}: its key element has a box`).not.toBeNull();
  if (!box) return;
  expect(box.y < viewport.height && box.y + box.height > 0 && box.x < viewport.width && box.x + box.width > 0, `${where}: its key element is in the picture`).toBe(
    true,
  );
}

describe('screenshots', () => {
  it(`renders each main screen, desktop and phone${UPDATE ? ', into docs/screenshots' : ''}`, async () => {
    const world = await buildDemoWorld(stack.baseUrl);
    if (UPDATE) await mkdir(OUT_DIR, { recursive: true });
    for (const narrow of [false, true]) {
      const viewport = narrow ? NARROW_VIEWPORT : WIDE_VIEWPORT;
      for (const shot of SHOTS) {
        const name = `${shot.name}-${narrow ? 'phone' : 'desktop'}`;
        const options = { narrow, geolocation: shot.geolocation };
        const page = shot.signedIn ? await stack.openAs(world.maya, shot.path, options) : (await stack.open(shot.path, options)).page;
        await shot.ready(page, world);
        // Let entrance animations (dialogs, toasts) finish so the picture is the settled screen.
        // (Spinners loop forever and a cancelled animation rejects: only finite ones are awaited.)
        await page.evaluate(() =>
          Promise.all(
            document
              .getAnimations()
              .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
              .map((a) => a.finished.catch(() => undefined)),
          ),
        );
        await expectInPicture(shot.key(page, world), viewport, name);
        const png = await page.screenshot();
        expect(pngSize(png), name).toEqual(viewport);
        if (UPDATE) await writeFile(path.join(OUT_DIR, `${name}.png`), png);
        await page.close();
      }
    }
  }, 180_000);
});
