import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectSignedInFeed,
  expectToast,
  expectWelcomePage,
  registerViaApi,
  signInWithToken,
  uniqueUser,
  useE2eStack,
} from './support';

/**
 * The app shell: routes, header and menus, the narrow-screen bottom bar,
 * the 404 page and the privacy screen, against the real stack.
 */
const stack = useE2eStack();
const open = (path: string, narrow = false) => stack.open(path, { narrow });

/** A freshly registered user, signed in on a new page. */
async function openSignedIn(path: string, narrow = false): Promise<{ page: Page; token: string }> {
  const { token } = await registerViaApi(stack.baseUrl, uniqueUser('shell'));
  const { page } = await open('/', narrow);
  await signInWithToken(page, token, path);
  return { page, token };
}

const SIGNED_IN_ONLY: [path: string, title: string][] = [
  ['/profile', 'My Profile'],
  ['/my-profile', 'My Profile'],
  ['/profile/somebody', 'Profile'],
  ['/users/00000000-0000-4000-8000-000000000000', 'Profile'],
  ['/users/00000000-0000-4000-8000-000000000000/followers', 'Followers'],
  ['/friends', 'Friends'],
  ['/friends-enhanced', 'Friends'],
  ['/discovery', 'Discovery'],
  ['/messages', 'Messages'],
  ['/dm', 'Direct Messages'],
  ['/privacy', 'Privacy Settings'],
  ['/account', 'Account Settings'],
  ['/notifications', 'Notifications'],
  ['/challenges', 'Challenges'],
  ['/challenges/00000000-0000-4000-8000-000000000000', 'Challenge'],
  ['/sessions/00000000-0000-4000-8000-000000000000', 'Session'],
  ['/photos', 'Photos'],
  ['/search', 'Search'],
];

describe('routes', () => {
  it('shows the 404 page for unknown paths, with a way home', async () => {
    const { page } = await open('/no/such/page');
    await page.getByRole('heading', { level: 1, name: '404' }).waitFor();
    await page.getByText('Page Not Found', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Go back home' }).click();
    await page.waitForURL(stack.baseUrl + '/');
    await expectWelcomePage(page);
  });

  it('asks signed-out visitors to sign in on every signed-in-only route', async () => {
    const { page } = await open('/');
    await expectWelcomePage(page);
    for (const [path, title] of SIGNED_IN_ONLY) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
      await page.getByRole('heading', { name: 'Sign in to continue' }).waitFor();
    }
    await page.getByRole('main').getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('dialog', { name: 'Sign In' }).waitFor();
  });

  it('builds every signed-in screen: none is a coming-soon placeholder any more', async () => {
    const { page } = await openSignedIn('/');
    await expectSignedInFeed(page);
    await page.getByRole('region', { name: 'No activities yet', exact: true }).waitFor();
    for (const [path] of SIGNED_IN_ONLY) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await page.getByRole('heading', { name: 'Coming soon' }).count()).toBe(0);
    }
    await page.goto('/this-is-not-a-route');
    await page.getByRole('heading', { level: 1, name: '404' }).waitFor();
  });
});

describe('wide header', () => {
  it('highlights the current link, opens the avatar menu and sends the feed filter', async () => {
    const { page } = await openSignedIn('/');
    await expectSignedInFeed(page);
    const main = page.getByRole('navigation', { name: 'Main' });
    const links = ['Feed', 'Discovery', 'Friends', 'Challenges', 'Messages', 'Photos', 'Search'];
    expect(await main.getByRole('link').allTextContents()).toEqual(links);
    expect(await page.getByRole('navigation', { name: 'Bottom navigation' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);

    await main.getByRole('link', { name: 'Discovery' }).click();
    await page.getByRole('heading', { level: 1, name: 'Discovery' }).waitFor();
    expect(await main.getByRole('link', { name: 'Discovery' }).getAttribute('aria-current')).toBe('page');
    expect(await main.getByRole('link', { name: 'Feed' }).getAttribute('aria-current')).toBeNull();

    await page.getByRole('button', { name: 'Account menu' }).click();
    const menu = page.getByRole('menu');
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['My Profile', 'Privacy', 'Account', 'Logout']);
    await menu.getByRole('menuitem', { name: 'My Profile' }).click();
    await page.waitForURL('**/profile');
    await page.getByRole('heading', { level: 1, name: 'My Profile' }).waitFor();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Privacy' }).click();
    await page.getByRole('heading', { level: 1, name: 'Privacy Settings' }).waitFor();

    await main.getByRole('link', { name: 'Feed' }).click();
    const filter = page.getByRole('combobox', { name: 'Filter activities' });
    expect(await filter.inputValue()).toBe('all');
    expect(await filter.getByRole('option').allTextContents()).toEqual(['All Activities', 'Following', 'My Activities']);
    const filtered = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/sessions' && new URL(req.url()).searchParams.get('filter') === 'mine');
    await filter.selectOption('mine');
    expect(await filter.inputValue()).toBe('mine');
    await filtered;

    // F8 moves focus to the notification region.
    await page.keyboard.press('F8');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Notifications (F8)');
  });
});

describe('narrow screens', () => {
  it("shows the bottom bar with the spec's five tabs and folds the header links into the hamburger", async () => {
    const { page } = await openSignedIn('/', true);
    await expectSignedInFeed(page);
    const bottom = page.getByRole('navigation', { name: 'Bottom navigation' });
    await bottom.waitFor();
    const tabs = bottom.getByRole('link');
    expect(await tabs.allTextContents()).toEqual(['Feed', 'Discover', 'Friends', 'Messages', 'Profile']);

    // Fixed to the bottom, 4rem high, five equal columns.
    const bar = await bottom.boundingBox();
    expect(bar).not.toBeNull();
    expect(bar?.height).toBe(64);
    expect((bar?.y ?? 0) + (bar?.height ?? 0)).toBe(844);
    const widths = await Promise.all((await tabs.all()).map(async (tab) => (await tab.boundingBox())?.width ?? 0));
    for (const width of widths) expect(width).toBeCloseTo(390 / 5, 0);

    // The header link row is gone; the hamburger carries the same seven links.
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Menu' });
    expect(await menu.getByRole('link').allTextContents()).toEqual([
      'Feed',
      'Discovery',
      'Friends',
      'Challenges',
      'Messages',
      'Photos',
      'Search',
    ]);
    await menu.getByRole('link', { name: 'Photos' }).click();
    await page.getByRole('heading', { level: 1, name: 'Photos' }).waitFor();
    await menu.waitFor({ state: 'detached' });

    // Tabs navigate and mark the current one.
    for (const [tab, title, path] of [
      ['Discover', 'Discovery', '/discovery'],
      ['Friends', 'Friends', '/friends'],
      ['Messages', 'Messages', '/messages'],
      ['Profile', 'My Profile', '/my-profile'],
      ['Feed', 'Activity Feed', '/'],
    ] as const) {
      await bottom.getByRole('link', { name: tab }).click();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      expect(new URL(page.url()).pathname).toBe(path);
      expect(await bottom.getByRole('link', { name: tab }).getAttribute('aria-current')).toBe('page');
    }

    // Signed out, there is no bottom bar.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expectWelcomePage(page);
    expect(await bottom.count()).toBe(0);
  });
});

describe('privacy settings', () => {
  const SWITCHES = ['Private Profile', 'Allow Direct Messages', 'Show Online Status', 'Show my e-mail to friends'] as const;

  async function states(page: Page): Promise<(string | null)[]> {
    return Promise.all(SWITCHES.map((name) => page.getByRole('switch', { name }).getAttribute('aria-checked')));
  }

  it('saves each switch on change with only that key, and keeps it after a reload', async () => {
    const { page, token } = await openSignedIn('/privacy');
    await page.getByRole('switch', { name: 'Private Profile' }).waitFor();
    expect(await states(page)).toEqual(['false', 'true', 'true', 'false']);
    // Who sees the e-mail address, said beside its switch and in the summary (issue 40).
    await page.getByText('Off: nobody but you sees your e-mail address. On: your friends see it too; nobody else ever does.').waitFor();
    await page.getByText('Nobody but you can see your e-mail address.').waitFor();
    await page.getByText('Your profile is public: anyone can see your sessions, photos and profile info.').waitFor();

    const saved = page.waitForRequest((req) => req.method() === 'PUT' && new URL(req.url()).pathname === '/api/privacy');
    await page.getByRole('switch', { name: 'Private Profile' }).click();
    const request = await saved;
    expect(request.postDataJSON()).toEqual({ isProfilePrivate: true });
    expect(request.headers()['authorization']).toBe(`Bearer ${token}`);
    expect(request.headers()['content-type']).toContain('application/json');
    expect((await request.response())?.status()).toBe(200);
    await page.getByText('Your profile is private: only your friends can see your sessions, photos and profile info.').waitFor();

    const savedOnline = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/privacy');
    await page.getByRole('switch', { name: 'Show Online Status' }).click();
    expect((await savedOnline).status()).toBe(200);
    await page.getByText('Your online status is hidden from your friends.').waitFor();
    const savedEmail = page.waitForRequest((req) => req.method() === 'PUT' && new URL(req.url()).pathname === '/api/privacy');
    await page.getByRole('switch', { name: 'Show my e-mail to friends' }).click();
    expect((await savedEmail).postDataJSON()).toEqual({ showEmailToFriends: true });
    await page.getByText('Your friends can see your e-mail address; nobody else can.').waitFor();
    expect(await states(page)).toEqual(['true', 'true', 'false', 'true']);

    await page.reload();
    await page.getByRole('switch', { name: 'Private Profile' }).waitFor();
    expect(await states(page)).toEqual(['true', 'true', 'false', 'true']);

    const me = await fetch(`${stack.baseUrl}/api/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await me.json()).toMatchObject({ isProfilePrivate: true, allowDirectMessages: true, showOnlineStatus: false, showEmailToFriends: true });
  });

  it('reverts a switch and says so when saving fails', async () => {
    const { page } = await openSignedIn('/privacy');
    const dms = page.getByRole('switch', { name: 'Allow Direct Messages' });
    await dms.waitFor();
    await page.route('**/api/privacy', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'boom' }),
      }),
    );
    await dms.click();
    await expectToast(page, 'Error', 'Failed to update privacy settings. Please try again.');
    await expect.poll(() => dms.getAttribute('aria-checked')).toBe('true');
    await page.getByText('Other users can send you direct messages.').waitFor();
  });
});
