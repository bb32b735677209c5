import { COMMENTS_IN_CARD, NEXT_CURSOR_HEADER, type FeedSession, type SessionComment } from '@hoptrack/proto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  callApi,
  expectApi,
  expectSignedInFeed,
  expectToast,
  logSessionViaApi,
  registerUser,
  useE2eStack,
  waitForSocialUser,
  type RegisteredUser,
} from './support';

/**
 * The lists behind a feed card (the card carries only the newest three
 * comments and likers): 'View all N comments' loads every comment, the like
 * summary opens 'Liked by' with everyone a page at a time, and people the
 * viewer blocked are neither shown nor counted. The world is built through
 * the API; the checks are made in the browser.
 */
const stack = useE2eStack();

const sessionCard = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });
const commentsRegion = (card: Locator) => card.getByRole('region', { name: 'Comments', exact: true });
const commentTexts = (card: Locator) => commentsRegion(card).getByRole('listitem').locator('.comment__content').allTextContents();
const likeSummary = (card: Locator) => card.getByRole('button', { name: /^Liked by .*likes?$/ });

/** `owner`'s session, logged through the API. */
const logSession = (owner: RegisteredUser, title: string): Promise<FeedSession> =>
  logSessionViaApi(stack.baseUrl, owner, { title, beerCount: '2', duration: '60' });

/**
 * Waits until the sessions service lets `user` act on `session` (it learns of
 * new people by events, a moment after they registered).
 */
async function waitUntilSeen(user: RegisteredUser, session: FeedSession): Promise<void> {
  await expect.poll(async () => (await callApi(stack.baseUrl, user.token, 'GET', `/api/sessions/${session.id}/comments`)).status).toBe(200);
}

const comment = (user: RegisteredUser, session: FeedSession, content: string) =>
  expectApi(stack.baseUrl, user.token, 'POST', `/api/sessions/${session.id}/comments`, { content }, 201) as Promise<SessionComment>;
const like = (user: RegisteredUser, session: FeedSession) => expectApi(stack.baseUrl, user.token, 'POST', `/api/sessions/${session.id}/like`);

/**
 * Waits until `viewer`'s feed (the one the page shows) holds `session` with
 * these counts: the timeline and the cards learn of writes by events.
 */
async function waitForCounts(viewer: RegisteredUser, session: FeedSession, counts: Pick<FeedSession, 'likeCount' | 'commentCount'>): Promise<void> {
  await expect
    .poll(async () => {
      const cards = (await expectApi(stack.baseUrl, viewer.token, 'GET', '/api/sessions?filter=all&limit=50')) as FeedSession[];
      const card = cards.find((candidate) => candidate.id === session.id);
      return card && { likeCount: card.likeCount, commentCount: card.commentCount };
    })
    .toEqual(counts);
}

/** Signed in as `user` on the feed, with the card of `title` shown. */
async function openCard(user: RegisteredUser, title: string): Promise<{ page: Page; card: Locator }> {
  const page = await stack.openAs(user, '/');
  await expectSignedInFeed(page);
  const card = sessionCard(page, title);
  await card.waitFor();
  return { page, card };
}

describe('comments on a card', () => {
  it('shows the newest three with "View all 5 comments", then every comment in order; adding and deleting work in both modes', async () => {
    const olive = await registerUser(stack.baseUrl, 'olive');
    const pete = await registerUser(stack.baseUrl, 'pete');
    const title = `Cask ale evening ${olive.username}`;
    const session = await logSession(olive, title);
    await waitUntilSeen(pete, session);
    // Two people, alternating, so the list's order is more than one author's.
    for (let index = 1; index <= 5; index += 1) await comment(index % 2 === 1 ? pete : olive, session, `Comment ${index}`);
    await waitForCounts(olive, session, { likeCount: 0, commentCount: 5 });

    const { page, card } = await openCard(olive, title);
    await card.getByText('5 comments', { exact: true }).waitFor();
    // Nobody liked it: the summary is a plain count, nothing to open.
    await card.getByText('0 likes', { exact: true }).waitFor();
    expect(await likeSummary(card).count()).toBe(0);

    // The card's newest three, oldest first, and the way to the rest.
    await card.getByRole('button', { name: 'Comments', exact: true }).click();
    await expect.poll(() => commentTexts(card)).toEqual(['Comment 3', 'Comment 4', 'Comment 5']);
    expect(COMMENTS_IN_CARD).toBe(3);
    const viewAll = commentsRegion(card).getByRole('button', { name: 'View all 5 comments', exact: true });
    const fetched = page.waitForResponse((res) => new URL(res.url()).pathname === `/api/sessions/${session.id}/comments` && res.request().method() === 'GET');
    await viewAll.click();
    expect((await fetched).status()).toBe(200);
    await expect.poll(() => commentTexts(card)).toEqual(['Comment 1', 'Comment 2', 'Comment 3', 'Comment 4', 'Comment 5']);
    await viewAll.waitFor({ state: 'detached' });
    // The button is gone: focus went to the list, not to the page.
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('comment-list') ?? false)).toBe(true);

    // Every comment shown: a new one goes at the end, a deleted one goes away; the count follows.
    const box = card.getByRole('textbox', { name: 'Add a comment', exact: true });
    await box.fill('Comment 6');
    await card.getByRole('button', { name: 'Post', exact: true }).click();
    await expectToast(page, 'Comment added successfully!');
    await expect.poll(() => commentTexts(card)).toEqual(['Comment 1', 'Comment 2', 'Comment 3', 'Comment 4', 'Comment 5', 'Comment 6']);
    await card.getByText('6 comments', { exact: true }).waitFor();
    const first = commentsRegion(card).getByRole('listitem').filter({ hasText: 'Comment 1' });
    await first.getByRole('button', { name: 'Delete comment', exact: true }).click();
    await first.waitFor({ state: 'detached' });
    await card.getByText('5 comments', { exact: true }).waitFor();
    await expect.poll(() => commentTexts(card)).toEqual(['Comment 2', 'Comment 3', 'Comment 4', 'Comment 5', 'Comment 6']);

    // Closed and opened again: the card's newest three once more, and the rest behind the button.
    await card.getByRole('button', { name: 'Comments', exact: true }).click();
    await card.getByRole('button', { name: 'Comments', exact: true }).click();
    await expect.poll(() => commentTexts(card)).toEqual(['Comment 4', 'Comment 5', 'Comment 6']);
    await commentsRegion(card).getByRole('button', { name: 'View all 5 comments', exact: true }).waitFor();

    // Deleting from the card: the count drops and the next-newest moves up.
    const newest = commentsRegion(card).getByRole('listitem').filter({ hasText: 'Comment 6' });
    await newest.getByRole('button', { name: 'Delete comment', exact: true }).click();
    await newest.waitFor({ state: 'detached' });
    await card.getByText('4 comments', { exact: true }).waitFor();
    await expect.poll(() => commentTexts(card)).toEqual(['Comment 3', 'Comment 4', 'Comment 5']);
    expect(await expectApi(stack.baseUrl, olive.token, 'GET', `/api/sessions/${session.id}/comments`)).toHaveLength(4);
  });

  it('says when the full list fails to load, and loads it on "Try again"', async () => {
    const quinn = await registerUser(stack.baseUrl, 'quinn');
    const title = `Porter tasting ${quinn.username}`;
    const session = await logSession(quinn, title);
    for (let index = 1; index <= 4; index += 1) await comment(quinn, session, `Note ${index}`);
    await waitForCounts(quinn, session, { likeCount: 0, commentCount: 4 });

    const { page, card } = await openCard(quinn, title);
    await card.getByRole('button', { name: 'Comments', exact: true }).click();
    await expect.poll(() => commentTexts(card)).toEqual(['Note 2', 'Note 3', 'Note 4']);
    await page.route(`**/api/sessions/${session.id}/comments`, (route) =>
      route.request().method() === 'GET' ? route.fulfill({ status: 500, contentType: 'text/plain', body: 'Injected failure' }) : route.fallback(),
    );
    await commentsRegion(card).getByRole('button', { name: 'View all 4 comments', exact: true }).click();
    const failure = commentsRegion(card).getByRole('alert');
    await failure.getByText('Could not load comments.', { exact: true }).waitFor();
    // What the card carries stays on screen meanwhile.
    expect(await commentTexts(card)).toEqual(['Note 2', 'Note 3', 'Note 4']);
    await page.unroute(`**/api/sessions/${session.id}/comments`);
    await failure.getByRole('button', { name: 'Try again', exact: true }).click();
    await expect.poll(() => commentTexts(card)).toEqual(['Note 1', 'Note 2', 'Note 3', 'Note 4']);
    await failure.waitFor({ state: 'detached' });
  });
});

describe('likes on a card', () => {
  it('shows three avatars and "+2" for five likers; "Liked by" lists all five, newest first, a page at a time', async () => {
    const rosa = await registerUser(stack.baseUrl, 'rosa');
    const likers: RegisteredUser[] = [];
    for (const label of ['ana', 'bo', 'cy', 'dee', 'eli']) likers.push(await registerUser(stack.baseUrl, label));
    const title = `Sour flight ${rosa.username}`;
    const session = await logSession(rosa, title);
    for (const liker of likers) {
      await waitUntilSeen(liker, session);
      await like(liker, session);
    }
    await waitForCounts(rosa, session, { likeCount: 5, commentCount: 0 });
    const newestFirst = [...likers].reverse();

    const { page, card } = await openCard(rosa, title);
    await card.getByText('5 likes', { exact: true }).waitFor();
    const [fifth, fourth, third] = newestFirst.map((liker) => liker.displayName);
    await card.getByRole('img', { name: `Liked by ${fifth}, ${fourth}, ${third} and 2 more`, exact: true }).waitFor();
    expect(await card.locator('.like-summary__avatar').count()).toBe(3);
    expect(await card.locator('.like-summary__more').textContent()).toBe('+2');

    // Pages of two (the request's limit rewritten on its way), so 'Load more' is needed twice.
    const cursors: Array<string | null> = [];
    const answers: Array<string | null> = [];
    await page.route(`**/api/sessions/${session.id}/likes*`, (route) => {
      const url = new URL(route.request().url());
      cursors.push(url.searchParams.get('cursor'));
      url.searchParams.set('limit', '2');
      return route.continue({ url: url.toString() });
    });
    page.on('response', (res) => {
      if (new URL(res.url()).pathname === `/api/sessions/${session.id}/likes`) answers.push(res.headers()[NEXT_CURSOR_HEADER] ?? null);
    });

    const summary = likeSummary(card);
    expect(await summary.getAttribute('aria-haspopup')).toBe('dialog');
    await summary.click();
    const dialog = page.getByRole('dialog', { name: 'Liked by', exact: true });
    const people = dialog.getByRole('list', { name: 'People who liked this', exact: true }).getByRole('link');
    await expect.poll(() => people.allTextContents()).toEqual(newestFirst.slice(0, 2).map((liker) => liker.displayName));
    const more = dialog.getByRole('button', { name: 'Load more', exact: true });
    await more.click();
    await expect.poll(() => people.allTextContents()).toEqual(newestFirst.slice(0, 4).map((liker) => liker.displayName));
    await more.click();
    await expect.poll(() => people.allTextContents()).toEqual(newestFirst.map((liker) => liker.displayName));
    await more.waitFor({ state: 'detached' });
    // Each page asked with the cursor the previous one answered; the last answered none.
    expect(answers).toHaveLength(3);
    expect(cursors).toEqual([null, answers[0], answers[1]]);
    expect(answers[2]).toBeNull();
    // Every liker links to their profile.
    expect(await Promise.all((await people.all()).map((link) => link.getAttribute('href')))).toEqual(newestFirst.map((liker) => `/users/${liker.id}`));

    // Escape closes it and gives focus back to the summary.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => summary.evaluate((element) => element === document.activeElement)).toBe(true);

    // A liker's name opens their profile.
    await page.unroute(`**/api/sessions/${session.id}/likes*`);
    await summary.click();
    await people.first().click();
    await page.waitForURL(`**/users/${newestFirst[0]?.id ?? ''}`);
    await dialog.waitFor({ state: 'detached' });
  });
});

describe('people the viewer blocked', () => {
  it('are neither shown nor counted: on the card, in "View all" and in "Liked by"', async () => {
    const sara = await registerUser(stack.baseUrl, 'sara');
    const tom = await registerUser(stack.baseUrl, 'tom');
    const uma = await registerUser(stack.baseUrl, 'uma');
    const title = `Oktoberfest warm-up ${sara.username}`;
    const session = await logSession(sara, title);
    await waitUntilSeen(tom, session);
    await waitUntilSeen(uma, session);
    await like(tom, session);
    await like(uma, session);
    await comment(tom, session, 'Tom 1');
    await comment(uma, session, 'Uma says hi');
    for (let index = 2; index <= 4; index += 1) await comment(tom, session, `Tom ${index}`);
    await waitForCounts(sara, session, { likeCount: 2, commentCount: 5 });

    await waitForSocialUser(stack.baseUrl, sara, uma);
    await expectApi(stack.baseUrl, sara.token, 'POST', `/api/friends/${uma.id}/block`, { reason: 'Spam' });
    // The sessions service learns of the block by an event.
    await waitForCounts(sara, session, { likeCount: 1, commentCount: 4 });

    const { page, card } = await openCard(sara, title);
    await card.getByText('1 like', { exact: true }).waitFor();
    await card.getByText('4 comments', { exact: true }).waitFor();
    await card.getByRole('img', { name: `Liked by ${tom.displayName}`, exact: true }).waitFor();

    await card.getByRole('button', { name: 'Comments', exact: true }).click();
    await expect.poll(() => commentTexts(card)).toEqual(['Tom 2', 'Tom 3', 'Tom 4']);
    await commentsRegion(card).getByRole('button', { name: 'View all 4 comments', exact: true }).click();
    await expect.poll(() => commentTexts(card)).toEqual(['Tom 1', 'Tom 2', 'Tom 3', 'Tom 4']);
    expect(await commentsRegion(card).getByText(uma.displayName).count()).toBe(0);

    await likeSummary(card).click();
    const dialog = page.getByRole('dialog', { name: 'Liked by', exact: true });
    const people = dialog.getByRole('list', { name: 'People who liked this', exact: true }).getByRole('link');
    await expect.poll(() => people.allTextContents()).toEqual([tom.displayName]);
  });
});
