import { UNSUBSCRIBED_MESSAGE, type FeedSession } from '@hoptrack/proto';
import { caughtMail } from '@hoptrack/testing/mail';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { axeProblems } from './a11y';
import { callApi, expectApi, logSessionViaApi, makeFriends, registerUser, useE2eStack, waitForSocialUser, type RegisteredUser } from './support';

/**
 * Notifications in the browser (issue 22): the header's bell follows the
 * live stream, the list groups one session's activity into one entry that
 * links to the session, "Mark all read" clears the bell, a blocked or muted
 * person notifies nothing, unliking retracts, the per-kind settings save, and
 * a mail's unsubscribe link works without signing in. The world is made
 * through the API; every check is made on the screen.
 */
const stack = useE2eStack();
const mailUrl = inject('e2eMailUrl');

/** The bell's accessible name carries the count: "Notifications, 2 unread", or just "Notifications". */
const bell = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^Notifications(, \d+ unread)?$/ });
const bellName = (page: Page) => bell(page).getAttribute('aria-label');
const entries = (page: Page) => page.getByRole('list', { name: 'Notifications', exact: true }).getByRole('listitem');
const entryTexts = (page: Page) => entries(page).locator('.notification__text').allTextContents();
const settingSwitch = (page: Page, label: string) => page.getByRole('switch', { name: label, exact: true });

const like = (user: RegisteredUser, session: FeedSession) => expectApi(stack.baseUrl, user.token, 'POST', `/api/sessions/${session.id}/like`);

/** `owner`'s session, which `others` can already act on (the sessions service learns of new people by events). */
async function sessionOf(owner: RegisteredUser, title: string, others: RegisteredUser[]): Promise<FeedSession> {
  const session = await logSessionViaApi(stack.baseUrl, owner, { title, beerCount: '2', duration: '60' });
  for (const other of others) {
    await expect.poll(async () => (await callApi(stack.baseUrl, other.token, 'GET', `/api/sessions/${session.id}/comments`)).status).toBe(200);
  }
  return session;
}

/** Waits until the list on screen shows exactly these texts (it refetches on each live event). */
async function expectEntries(page: Page, texts: string[]): Promise<void> {
  await expect.poll(() => entryTexts(page)).toEqual(texts);
}

async function expectSwitch(control: Locator, on: boolean): Promise<void> {
  await expect.poll(() => control.getAttribute('aria-checked')).toBe(String(on));
}

describe('the bell and the notifications page', () => {
  it("Bob likes and comments on Alice's session: her bell shows 1, the one entry links to the session, Mark all read clears it", async () => {
    const [alice, bob] = await Promise.all([registerUser(stack.baseUrl, 'bellalice'), registerUser(stack.baseUrl, 'bellbob')]);
    const title = `Friday pints ${alice.username}`;
    const session = await sessionOf(alice, title, [bob]);

    const page = await stack.openAs(alice, '/');
    await expect.poll(() => bellName(page)).toBe('Notifications');
    // The card's title, photo-less time and date are real links to the session's page (issue 40: middle-click, copy link).
    const feedCard = page.getByRole('article', { name: title, exact: true });
    expect(await feedCard.getByRole('heading', { level: 2 }).getByRole('link').getAttribute('href')).toBe(`/sessions/${session.id}`);
    expect(await feedCard.locator('a:has(time)').getAttribute('href')).toBe(`/sessions/${session.id}`);
    // Alice stays on the feed: the bell learns of Bob by the live stream, with no reload.
    await like(bob, session);
    await expectApi(stack.baseUrl, bob.token, 'POST', `/api/sessions/${session.id}/comments`, { content: 'Cheers!' }, 201);
    await expect.poll(() => bellName(page)).toBe('Notifications, 1 unread');
    await expect.poll(() => page.getByTestId('notification-count').textContent()).toBe('1');

    await bell(page).click();
    await page.getByRole('heading', { level: 1, name: 'Notifications', exact: true }).waitFor();
    const text = `${bob.displayName} liked and commented on your session “${title}”`;
    // Grouped: the like and the comment are one entry, unread.
    await expectEntries(page, [`Unread: ${text}`]);
    const entry = entries(page).first();
    expect(await entry.getAttribute('data-read')).toBe('false');
    // It holds a comment: it opens the session at its comments.
    expect(await entry.getByRole('link').getAttribute('href')).toBe(`/sessions/${session.id}#comments`);
    expect(await axeProblems(page, '/notifications with an unread entry')).toEqual([]);

    await page.getByRole('button', { name: 'Mark all read', exact: true }).click();
    await expect.poll(() => bellName(page)).toBe('Notifications');
    await expectEntries(page, [text]);
    expect(await entry.getAttribute('data-read')).toBe('true');
    await expect.poll(() => page.getByRole('button', { name: 'Mark all read', exact: true }).isDisabled()).toBe(true);
    // Still read after a reload: the server marked it, not only the screen.
    await page.reload();
    await expectEntries(page, [text]);
    expect(await bellName(page)).toBe('Notifications');

    // The entry leads to the session, where Bob's like and comment show, the comments expanded, his in view.
    await entries(page).first().getByRole('link').click();
    await page.waitForURL(`${stack.baseUrl}/sessions/${session.id}#comments`);
    const card = page.getByRole('article', { name: title, exact: true });
    await card.getByText('1 comment', { exact: true }).waitFor();
    await card.getByRole('img', { name: `Liked by ${bob.displayName}`, exact: true }).waitFor();
    await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
    expect(await card.getByRole('button', { name: 'Comments', exact: true }).getAttribute('aria-expanded')).toBe('true');
    const comment = card.getByRole('listitem', { name: `Comment by ${bob.displayName}`, exact: true });
    await comment.getByText('Cheers!', { exact: true }).waitFor();
    await expect.poll(() => comment.evaluate((node) => {
      const box = node.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    })).toBe(true);
  });

  it('a blocked or a muted person notifies nothing, and unliking takes the entry back', async () => {
    const [alice, bob, carl, dana] = await Promise.all([
      registerUser(stack.baseUrl, 'quietalice'),
      registerUser(stack.baseUrl, 'quietbob'),
      registerUser(stack.baseUrl, 'quietcarl'),
      registerUser(stack.baseUrl, 'quietdana'),
    ]);
    const title = `Porter tasting ${alice.username}`;
    const session = await sessionOf(alice, title, [bob, carl, dana]);
    await waitForSocialUser(stack.baseUrl, alice, carl);
    // Mutes are between friends. Dana asks and Alice accepts, which takes the request entry back.
    await makeFriends(stack.baseUrl, dana, alice);

    const page = await stack.openAs(alice, '/notifications');
    await page.getByRole('region', { name: 'No notifications yet', exact: true }).waitFor();

    // Carl likes; then Alice blocks him: his entry goes, and he can no longer reach the session.
    await like(carl, session);
    await expectEntries(page, [`Unread: ${carl.displayName} liked your session “${title}”`]);
    await expectApi(stack.baseUrl, alice.token, 'POST', `/api/friends/${carl.id}/block`, { reason: 'Spam' });
    await page.reload();
    await page.getByRole('region', { name: 'No notifications yet', exact: true }).waitFor();
    expect(await bellName(page)).toBe('Notifications');
    expect((await callApi(stack.baseUrl, carl.token, 'POST', `/api/sessions/${session.id}/like`)).status).toBe(404);

    // Dana, a friend, is muted: she may still like, and Alice hears nothing of it. Bob's like after hers shows alone.
    await expectApi(stack.baseUrl, alice.token, 'POST', `/api/friends/${dana.id}/mute`, {});
    await like(dana, session);
    await like(bob, session);
    await expectEntries(page, [`Unread: ${bob.displayName} liked your session “${title}”`]);
    await expect.poll(() => bellName(page)).toBe('Notifications, 1 unread');

    // Bob unlikes: the entry he caused is taken back, on screen and on the bell.
    await expectApi(stack.baseUrl, bob.token, 'DELETE', `/api/sessions/${session.id}/like`);
    await page.getByRole('region', { name: 'No notifications yet', exact: true }).waitFor();
    await expect.poll(() => bellName(page)).toBe('Notifications');
  });

  it('filters the inbox by unread and by kind, and marks one entry unread again (the bell follows), on a phone', async () => {
    const [alice, bob, carl] = await Promise.all([registerUser(stack.baseUrl, 'filteralice'), registerUser(stack.baseUrl, 'filterbob'), registerUser(stack.baseUrl, 'filtercarl')]);
    const title = `Sour hour ${alice.username}`;
    const session = await sessionOf(alice, title, [carl]);
    await waitForSocialUser(stack.baseUrl, bob, alice);
    await expectApi(stack.baseUrl, bob.token, 'POST', '/api/friendships', { friendId: alice.id }, 201);
    await like(carl, session);
    const request = `${bob.displayName} sent you a friend request`;
    const liked = `${carl.displayName} liked your session “${title}”`;
    await expect.poll(async () => ((await expectApi(stack.baseUrl, alice.token, 'GET', '/api/notifications/unread-count')) as { count: number }).count).toBe(2);

    const page = await stack.openAs(alice, '/notifications', { narrow: true });
    await expectEntries(page, [`Unread: ${liked}`, `Unread: ${request}`]);
    await page.getByRole('button', { name: 'Mark all read', exact: true }).click();
    await expectEntries(page, [liked, request]);
    await expect.poll(() => bellName(page)).toBe('Notifications');

    // "Mark unread" on the like: unread again on screen, on the server and on the bell.
    const likeEntry = entries(page).filter({ hasText: liked });
    const markUnread = likeEntry.getByRole('button', { name: 'Mark unread', exact: true });
    const box = await markUnread.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
    await markUnread.click();
    await expectEntries(page, [`Unread: ${liked}`, request]);
    await expect.poll(() => bellName(page)).toBe('Notifications, 1 unread');
    await markUnread.waitFor({ state: 'detached' });

    const chips = page.getByRole('group', { name: 'Show', exact: true });
    await chips.getByRole('button', { name: 'Unread', exact: true }).click();
    await expectEntries(page, [`Unread: ${liked}`]);
    expect(await chips.getByRole('button', { name: 'Unread', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await chips.getByRole('button', { name: 'Friends', exact: true }).click();
    await expectEntries(page, [request]);
    expect(new URL(page.url()).search).toBe('?tab=friends');
    await chips.getByRole('button', { name: 'Challenges', exact: true }).click();
    await page.getByText('No challenge notifications', { exact: true }).waitFor();
    await chips.getByRole('button', { name: 'All', exact: true }).click();
    await expectEntries(page, [`Unread: ${liked}`, request]);

    // Item 12: the entry's time moves with the clock, without a reload: 5 minutes on, '5 min ago'.
    await page.clock.install();
    await page.reload();
    const time = entries(page).filter({ hasText: request }).locator('time');
    await expect.poll(() => time.textContent()).toMatch(/^(Just now|\d+ min ago)$/);
    const created = Date.parse((await time.getAttribute('datetime')) ?? '');
    const browserNow = await page.evaluate(() => Date.now());
    await page.clock.runFor(created + 5 * 60_000 + 30_000 - browserNow);
    await expect.poll(() => time.textContent()).toBe('5 min ago');
  });

  it('saves a per-kind setting, and a mail’s unsubscribe link stops every e-mail without signing in', async () => {
    const [alice, bob] = await Promise.all([registerUser(stack.baseUrl, 'mailalice'), registerUser(stack.baseUrl, 'mailbob')]);
    const page = await stack.openAs(alice, '/notifications', { narrow: true });
    // On a phone too, the bell sits in the header.
    await bell(page).waitFor();
    const likesByMail = settingSwitch(page, 'Likes on your sessions: E-mail');
    const requestsByMail = settingSwitch(page, 'Friend requests: E-mail');
    await expectSwitch(requestsByMail, true);
    await expectSwitch(likesByMail, false);
    // The switch flips at once; the reload waits for the server to have kept it (a reload cancels a save in flight).
    const saved = page.waitForResponse((res) => res.url().endsWith('/api/notifications/settings') && res.request().method() !== 'GET' && res.ok());
    await likesByMail.click();
    await expectSwitch(likesByMail, true);
    await saved;
    await page.reload();
    await expectSwitch(likesByMail, true);
    expect(await axeProblems(page, '/notifications on a phone')).toEqual([]);

    // Bob's friend request is mailed (on by default); its link leads to /unsubscribe.
    await waitForSocialUser(stack.baseUrl, bob, alice);
    await expectApi(stack.baseUrl, bob.token, 'POST', '/api/friendships', { friendId: alice.id }, 201);
    let link = '';
    await expect
      .poll(async () => {
        // Her inbox also holds auth's verification mail: the link is in whichever mail has one.
        const texts = (await caughtMail(mailUrl, alice.email)).map((mail) => mail.text ?? '');
        link = texts.map((text) => /https?:\/\/\S+\/unsubscribe\?token=\S+/.exec(text)?.[0]).find(Boolean) ?? '';
        return link;
      })
      .not.toBe('');
    const target = new URL(link);
    expect(target.pathname).toBe('/unsubscribe');

    // Signed out, in a browser of its own: one click, and the server's answer.
    const { page: outside } = await stack.open(`${target.pathname}${target.search}`);
    await outside.getByRole('heading', { level: 1, name: 'Notification e-mails', exact: true }).waitFor();
    await outside.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
    await outside.getByRole('status').getByText(UNSUBSCRIBED_MESSAGE, { exact: true }).waitFor();

    // A link whose token was tampered with says so.
    const { page: forged } = await stack.open(`/unsubscribe?token=${encodeURIComponent(`${target.searchParams.get('token') ?? ''}x`)}`);
    await forged.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
    await forged.getByRole('alert').getByText('This unsubscribe link is not valid.', { exact: true }).waitFor();

    // Every e-mail switch is off now; the in-app ones are as they were.
    await page.reload();
    await expectSwitch(requestsByMail, false);
    await expectSwitch(likesByMail, false);
    await expectSwitch(settingSwitch(page, 'Friend requests: In the app'), true);
  });
});
