import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectDialogFits, expectNoSidewaysScroll, expectNothingUnderBottomBar } from './layout';
import { expectSignedInFeed, useE2eStack } from './support';
import { buildDemoWorld, type DemoWorld } from './world';

/**
 * Phone-sized screens (390×844, issue 11) with a lived-in account: every
 * screen fits the width (no sideways scrolling), nothing hides behind the
 * fixed bottom bar, and every dialog fits the screen with its actions
 * reachable. The hamburger, the five tabs and the floating add button are
 * driven in shell.test.ts, feed.test.ts and the phone journey.
 */
const stack = useE2eStack();
// Built by the first test that needs it (expect.poll, used while building, only runs inside tests).
let built: Promise<DemoWorld> | undefined;
const demoWorld = () => (built ??= buildDemoWorld(stack.baseUrl));

/** Every signed-in screen, with what it must show once loaded. */
function screens(w: DemoWorld): { path: string; ready: (page: Page) => Locator }[] {
  const heading = (name: string) => (page: Page) => page.getByRole('heading', { level: 1, name, exact: true });
  return [
    { path: '/', ready: (page) => page.getByRole('article', { name: 'Friday pints with the team', exact: true }) },
    { path: '/profile', ready: (page) => page.getByText('Friday pints with the team', { exact: true }) },
    { path: '/my-profile', ready: heading('My Profile') },
    { path: `/profile/${w.jonas.username}`, ready: (page) => page.getByText('Brew day tasting', { exact: true }) },
    { path: `/users/${w.priya.id}`, ready: (page) => page.getByText('Sour flight at the taproom', { exact: true }) },
    { path: `/users/${w.maya.id}/followers`, ready: (page) => page.getByText(w.jonas.displayName, { exact: true }).first() },
    { path: '/friends', ready: heading('Friends') },
    { path: '/friends-enhanced', ready: heading('Friends') },
    // The heading comes before the content: without a position, the panel that asks for one (issue 40).
    { path: '/discovery', ready: (page) => page.getByRole('region', { name: 'Find bars near you', exact: true }) },
    { path: '/messages', ready: (page) => page.getByText(w.jonas.displayName, { exact: true }).first() },
    { path: '/dm', ready: heading('Direct Messages') },
    { path: '/privacy', ready: heading('Privacy Settings') },
    // Its last-loaded part: 'Your devices' (GET /api/me/devices), with the long line of each sign-in and its Sign out.
    { path: '/account', ready: (page) => page.getByRole('region', { name: 'Your devices', exact: true }).getByRole('listitem').filter({ hasText: 'This device' }).getByRole('button', { name: 'Sign out', exact: true }) },
    { path: '/notifications', ready: (page) => page.getByRole('table').getByRole('switch').first() },
    { path: '/challenges', ready: (page) => page.getByRole('list', { name: "Today's challenges", exact: true }).getByRole('article').first() },
    { path: '/photos', ready: (page) => page.getByText('Summer taprooms', { exact: true }).first() },
    { path: '/search', ready: heading('Search') },
  ];
}

describe('phone-sized screens', () => {
  it('fits every signed-in screen to the width and keeps its controls above the bottom bar', async () => {
    const world = await demoWorld();
    const page = await stack.openAs(world.maya, '/', { narrow: true });
    await expectSignedInFeed(page);
    for (const screen of screens(world)) {
      await page.goto(screen.path);
      await screen.ready(page).waitFor();
      const tabs = page.getByRole('navigation', { name: 'Bottom navigation' }).getByRole('link');
      // The Messages tab carries the unread badge ('Messages1 unread'): compare the labels.
      const labels = (await tabs.allTextContents()).map((text) => text.replace(/\d+ unread$/, ''));
      expect(labels, screen.path).toEqual(['Feed', 'Discover', 'Friends', 'Messages', 'Profile']);
      await expectNoSidewaysScroll(page, screen.path);
      await expectNothingUnderBottomBar(page, screen.path);
    }
  });

  it('fits an open conversation, an open album and the sign-in screens too', async () => {
    const world = await demoWorld();
    const page = await stack.openAs(world.maya, '/messages', { narrow: true });
    await page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: new RegExp(world.jonas.displayName) }).click();
    await page.getByText('Brew day on Saturday, you in?', { exact: true }).waitFor();
    await expectNoSidewaysScroll(page, 'an open conversation');

    await page.goto('/photos');
    await page.getByRole('link', { name: 'Summer taprooms', exact: true }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Photos' }).getByRole('listitem').count()).toBe(4);
    await expectNoSidewaysScroll(page, 'an open album');

    const { page: visitor } = await stack.open('/', { narrow: true });
    await visitor.getByRole('heading', { level: 1, name: 'Welcome to Hoptrack' }).waitFor();
    await expectNoSidewaysScroll(visitor, 'the welcome page');
    await visitor.getByRole('button', { name: 'Get Started Free' }).click();
    await expectDialogFits(visitor, visitor.getByRole('dialog', { name: 'Create Account' }), 'the register dialog');
    await visitor.keyboard.press('Escape');
    for (const path of ['/forgot-password', '/reset-password?token=nope', '/no/such/page']) {
      await visitor.goto(path);
      await visitor.getByRole('heading', { level: 1 }).first().waitFor();
      await expectNoSidewaysScroll(visitor, path);
    }
  });

  it('fits every dialog to the screen with its actions reachable', async () => {
    const world = await demoWorld();
    const page = await stack.openAs(world.maya, '/', { narrow: true });
    await expectSignedInFeed(page);

    await page.getByRole('button', { name: 'Log Session', exact: true }).click();
    const log = page.getByRole('dialog', { name: 'Log Beer Session' });
    await expectDialogFits(page, log, 'Log Beer Session');
    await log.getByRole('button', { name: 'Find Venues' }).click();
    await expectDialogFits(page, page.getByRole('dialog', { name: 'Find Venues' }), 'Find Venues');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Find Venues' }).waitFor({ state: 'detached' });
    // Typed work asks before it is thrown away (issue 40): that question fits too.
    await log.getByLabel('Title', { exact: true }).fill('Half typed');
    await page.keyboard.press('Escape');
    const discard = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await expectDialogFits(page, discard, 'the discard question');
    await discard.getByRole('button', { name: 'Discard', exact: true }).click();
    await log.waitFor({ state: 'detached' });

    const mine = page.getByRole('article', { name: 'Friday pints with the team', exact: true });
    await mine.getByRole('button', { name: 'Session options' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await expectDialogFits(page, page.getByRole('dialog', { name: 'Edit Beer Session' }), 'Edit Beer Session');
    await page.keyboard.press('Escape');
    await mine.getByRole('button', { name: 'Session options' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Beer Session' });
    await expectDialogFits(page, confirm, 'the delete confirmation');
    await page.keyboard.press('Escape');

    await page.goto('/profile');
    await page.getByRole('button', { name: 'Change picture', exact: true }).click();
    await expectDialogFits(page, page.getByRole('dialog').first(), 'the change-picture dialog');
    await page.keyboard.press('Escape');

    await page.goto('/photos');
    await page.getByRole('button', { name: 'Create Album', exact: true }).click();
    await expectDialogFits(page, page.getByRole('dialog').first(), 'Create Album');
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Summer taprooms', exact: true }).click();
    await page.getByRole('button', { name: 'Add Photos', exact: true }).click();
    await expectDialogFits(page, page.getByRole('dialog').first(), 'Add Photos');
    await page.keyboard.press('Escape');

    // Inviting to a challenge: joined first, then the list of friends.
    await page.goto('/challenges');
    const challenge = page.getByRole('list', { name: "Today's challenges", exact: true }).getByRole('article').first();
    await challenge.getByRole('button', { name: 'Join', exact: true }).click();
    await challenge.getByRole('button', { name: 'Invite', exact: true }).click();
    const invite = page.getByRole('dialog', { name: 'Invite friends' });
    await invite.getByRole('list', { name: 'Friends to invite', exact: true }).getByRole('listitem').first().waitFor();
    await expectDialogFits(page, invite, 'Invite friends');
    await page.keyboard.press('Escape');

    await page.goto('/search');
    await page.getByRole('searchbox').first().fill(world.jonas.displayName.slice(0, 5));
    await page.getByRole('listitem').filter({ hasText: world.jonas.username }).getByRole('button', { name: world.jonas.displayName, exact: true }).click();
    await expectDialogFits(page, page.getByRole('dialog').first(), 'the profile modal on /search');
  });
});
