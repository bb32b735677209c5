import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@hoptrack/testing/processes';
import { signInWithToken, useE2eStack } from './support';
import { buildDemoWorld, type DemoWorld } from './world';

/**
 * The main screens, desktop and phone, written to docs/screenshots/ by every
 * test run (the README shows them), so a person can look at the product
 * before installing it. Each shot first waits for the screen's real content.
 */
const stack = useE2eStack();
const OUT_DIR = path.join(repoRoot, 'docs/screenshots');

interface Shot {
  name: string;
  path: string;
  signedIn: boolean;
  /** Waits for the content that makes the screen worth looking at; may also open a dialog. */
  ready(page: Page, world: DemoWorld): Promise<void>;
}

const SHOTS: Shot[] = [
  {
    name: 'welcome',
    path: '/',
    signedIn: false,
    ready: (page) => page.getByRole('heading', { level: 1, name: 'Welcome to Hoptrack' }).waitFor(),
  },
  {
    name: 'feed',
    path: '/',
    signedIn: true,
    ready: async (page) => {
      await page.getByRole('article', { name: 'Sour flight at the taproom', exact: true }).getByRole('img', { name: /photo/i }).first().waitFor();
      await imagesLoaded(page);
    },
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
  },
  {
    name: 'profile',
    path: '/profile',
    signedIn: true,
    ready: async (page) => {
      await page.getByText('Friday pints with the team', { exact: true }).waitFor();
      await imagesLoaded(page);
    },
  },
  {
    name: 'friends',
    path: '/friends',
    signedIn: true,
    ready: async (page, world) => {
      await page.getByRole('tab', { name: /Requests/ }).click();
      await page.getByText(world.sam.displayName, { exact: true }).first().waitFor();
    },
  },
  {
    name: 'discovery',
    path: '/discovery',
    signedIn: true,
    ready: async (page) => {
      await page.context().grantPermissions(['geolocation']);
      await page.context().setGeolocation({ latitude: 39.7392, longitude: -104.9903 }); // Denver, in the catalogue
      await page.getByRole('button', { name: 'Use my location', exact: true }).click();
      await page.getByRole('list', { name: 'Bars near you', exact: true }).getByRole('listitem').first().waitFor();
    },
  },
  {
    name: 'messages',
    path: '/messages',
    signedIn: true,
    ready: async (page, world) => {
      await page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: new RegExp(world.jonas.displayName) }).click();
      await page.getByText('Always. I’ll bring the hops 🍺', { exact: true }).waitFor();
    },
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
  await expect.poll(() => page.evaluate(inView), { timeout: 20_000 }).toBe(true);
}

describe('screenshots', () => {
  it('writes each main screen, desktop and phone, to docs/screenshots', async () => {
    const world = await buildDemoWorld(stack.baseUrl);
    await mkdir(OUT_DIR, { recursive: true });
    for (const narrow of [false, true]) {
      for (const shot of SHOTS) {
        const { page } = await stack.open('/', { narrow });
        if (shot.signedIn) await signInWithToken(page, world.maya.token, shot.path);
        else await page.goto(shot.path);
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
        const file = path.join(OUT_DIR, `${shot.name}-${narrow ? 'phone' : 'desktop'}.png`);
        await page.screenshot({ path: file });
        await page.close();
      }
    }
  }, 180_000);
});
