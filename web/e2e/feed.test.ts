import { CREATE_BEER_TYPES, EDIT_BEER_TYPES, FEED_PAGE_DEFAULT, NEXT_CURSOR_HEADER, type FeedSession } from '@hoptrack/proto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  DENVER,
  expectApi,
  expectSignedInFeed,
  expectFieldError,
  dismissToast,
  expectToast,
  failNextCall,
  logSessionViaApi,
  makeFriends,
  registerUser,
  useE2eStack,
  type OpenOptions,
  type RegisteredUser,
  type UploadFile,
} from './support';
import { testImage } from './images';
import { UNREACHABLE_WRITE } from '../src/lib/useSessionAction';
import { CONDITION_BOUND_MS } from '@hoptrack/testing/bounds';

/**
 * The activity feed and the session dialogs (issue 6) against the real
 * stack: two friends logging, liking, reacting to, commenting on, editing and
 * deleting a session; the empty state and side card of a new user; the place,
 * music and type pickers of the Log dialog; paging with the cursor.
 */
const stack = useE2eStack();

const NEAREST = 'Pints Pub Brewery and Freehouse';

/** Signed in as `user`, once the feed shows. */
async function openFeed(user: RegisteredUser, options?: OpenOptions): Promise<Page> {
  const page = await stack.openAs(user, '/', options);
  await expectSignedInFeed(page);
  return page;
}

/** A real PNG of `width`×`height`, amber with a foam-coloured disc. */
const pngOf = (width: number, height: number): Promise<UploadFile> => testImage('pints.png', { background: '#b45309', width, height, motif: 'disc' });

const sessionCard = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });
const feedCards = (page: Page) => page.getByRole('list', { name: 'Activities', exact: true }).getByRole('article');
const emptyFeed = (page: Page) => page.getByRole('region', { name: 'No activities yet', exact: true });

/** Waits until the feed shows its cards or its empty state. */
async function feedSettled(page: Page): Promise<void> {
  await page.getByRole('list', { name: 'Activities', exact: true }).or(emptyFeed(page)).first().waitFor();
}

/** Reloads the feed until `check` holds (other people's sessions arrive by events). */
async function reloadUntil(page: Page, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + CONDITION_BOUND_MS;
  for (;;) {
    await feedSettled(page);
    if (await check()) return;
    if (Date.now() > deadline) throw new Error('the feed never showed what was expected');
    await page.waitForTimeout(500);
    await page.reload();
  }
}

async function loaded(image: Locator): Promise<void> {
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
}

async function openLogDialog(page: Page, button = 'Log Session'): Promise<Locator> {
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Log Beer Session', exact: true });
  await dialog.waitFor();
  return dialog;
}

const typeChips = (dialog: Locator) => dialog.getByRole('group', { name: 'Beer Types', exact: true }).locator('button[aria-pressed]');
const chip = (dialog: Locator, type: string) => typeChips(dialog).getByText(type, { exact: true });

const reaction = (card: Locator, name: string) =>
  card.getByRole('group', { name: 'Reactions', exact: true }).getByRole('button', { name, exact: true });

describe('feed between friends', () => {
  it('logs a session with a photo and music; the friend likes, reacts and comments; the owner edits and deletes it', async () => {
    const alice = await registerUser(stack.baseUrl, 'alice');
    const bob = await registerUser(stack.baseUrl, 'bob');
    await makeFriends(stack.baseUrl, alice, bob);
    const title = `Friday pints ${alice.username}`;

    // Alice logs a session through the dialog.
    const a = await openFeed(alice);
    await emptyFeed(a).waitFor();
    const dialog = await openLogDialog(a);
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    await dialog.getByLabel('Description', { exact: true }).fill('Three rounds after work.');
    await dialog.getByLabel('Beers', { exact: true }).fill('3');
    await dialog.getByLabel('Duration (minutes)', { exact: true }).fill('90');
    await dialog.getByLabel('Avg ABV (%)', { exact: true }).fill('5.2');
    await chip(dialog, 'IPA').click();
    await chip(dialog, 'Stout').click();
    await dialog.getByLabel('Custom beer type', { exact: true }).fill('  Hazy Pale ');
    await dialog.getByLabel('Custom beer type', { exact: true }).press('Enter');
    expect(await chip(dialog, 'Hazy Pale').getAttribute('aria-pressed')).toBe('true');
    await dialog.getByRole('combobox', { name: 'Location', exact: true }).fill('The Corner Taproom');
    const png = await pngOf(320, 200);
    await dialog.getByLabel('Select Photo', { exact: true }).setInputFiles(png);
    await loaded(dialog.getByRole('img', { name: 'Preview of the session photo', exact: true }));
    await dialog.getByRole('searchbox', { name: 'Search music', exact: true }).fill('tub');
    await dialog.getByRole('list', { name: 'Music results', exact: true }).getByRole('button', { name: /Tubthumping/ }).click();
    await dialog.getByRole('button', { name: 'Remove track', exact: true }).waitFor();

    const posted = a.waitForRequest((req) => req.method() === 'POST' && new URL(req.url()).pathname === '/api/sessions');
    await dialog.getByRole('button', { name: 'Log Session', exact: true }).click();
    const request = await posted;
    expect(await request.headerValue('authorization')).toBe(`Bearer ${alice.token}`);
    expect(await request.headerValue('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect((await request.response())?.status()).toBe(201);
    await expectToast(a, 'Beer session logged successfully!');
    await dialog.waitFor({ state: 'detached' });

    // Her card shows every field.
    const mine = sessionCard(a, title);
    await mine.waitFor();
    await mine.getByRole('link', { name: alice.displayName, exact: true }).waitFor();
    await mine.getByText('Just now', { exact: true }).waitFor();
    await mine.getByText('📍 The Corner Taproom', { exact: true }).waitFor();
    await mine.getByText('Three rounds after work.', { exact: true }).waitFor();
    expect(await mine.getByRole('list', { name: 'Session details', exact: true }).getByRole('listitem').allTextContents()).toEqual([
      '3 beers',
      '1 h 30 min',
      '5.2% ABV',
    ]);
    expect(await mine.getByRole('list', { name: 'Beer types', exact: true }).getByRole('listitem').allTextContents()).toEqual([
      'IPA',
      'Stout',
      'Hazy Pale',
    ]);
    await mine.getByText('Tubthumping', { exact: true }).waitFor();
    await loaded(mine.getByRole('img', { name: `Photo of ${title}`, exact: true }));
    await mine.getByText('0 likes', { exact: true }).waitFor();
    await mine.getByText('0 comments', { exact: true }).waitFor();
    await mine.getByRole('button', { name: 'Session options', exact: true }).waitFor();

    // Bob sees it in his feed; it is not his, so no menu.
    const b = await openFeed(bob);
    const card = sessionCard(b, title);
    await reloadUntil(b, async () => (await card.count()) === 1);
    await loaded(card.getByRole('img', { name: `Photo of ${title}`, exact: true }));
    // Its photo, like its title and time, is a link to the session's page (issue 40).
    const sessionHref = await card.getByRole('heading', { level: 2 }).getByRole('link').getAttribute('href');
    expect(sessionHref).toMatch(/^\/sessions\/[0-9a-f-]{36}$/);
    expect(await card.getByRole('link', { name: `Photo of ${title}`, exact: true }).getAttribute('href')).toBe(sessionHref);
    expect(await card.getByRole('button', { name: 'Session options' }).count()).toBe(0);
    // The few most used (none yet: the five defaults) and '+' for the other 13 (issue 40).
    expect(await card.getByRole('group', { name: 'Reactions', exact: true }).getByRole('button').count()).toBe(6);

    // He likes it, reacts with a beer and comments with Enter.
    const like = card.getByRole('button', { name: 'Like', exact: true });
    await like.click();
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');
    await card.getByText('1 like', { exact: true }).waitFor();
    await reaction(card, 'Beer').click();
    await expect.poll(() => reaction(card, 'Beer, 1').getAttribute('aria-pressed')).toBe('true');
    await card.getByRole('button', { name: 'Comments', exact: true }).click();
    const box = card.getByRole('textbox', { name: 'Add a comment', exact: true });
    await box.fill('Cheers to that!');
    // Enter posts, as in a message box (issue 40); the hint says so. Ctrl+Enter (the spec's) posts too (journeys.test.ts).
    await card.getByText('Enter posts, Shift+Enter starts a new line.', { exact: true }).waitFor();
    await box.press('Enter');
    await expectToast(b, 'Comment added successfully!');
    await card.getByRole('listitem', { name: `Comment by ${bob.displayName}`, exact: true }).getByText('Cheers to that!', { exact: true }).waitFor();
    await card.getByText('1 comment', { exact: true }).waitFor();
    expect(await box.inputValue()).toBe('');

    // A second comment, posted with the button, and deleted by its author.
    await box.fill('Typo');
    await card.getByRole('button', { name: 'Post', exact: true }).click();
    const typo = card.getByRole('listitem', { name: `Comment by ${bob.displayName}`, exact: true }).filter({ hasText: 'Typo' });
    await typo.waitFor();
    await card.getByText('2 comments', { exact: true }).waitFor();
    await typo.getByRole('button', { name: 'Delete comment', exact: true }).click();
    await typo.waitFor({ state: 'detached' });
    await card.getByText('1 comment', { exact: true }).waitFor();

    // He edits his comment (issue 40): Escape keeps the old text, Save sends the new one, which reads '(edited)'.
    const his = card.getByRole('listitem', { name: `Comment by ${bob.displayName}`, exact: true });
    expect(await his.getByText('(edited)', { exact: true }).count()).toBe(0);
    await his.getByRole('button', { name: 'Edit comment', exact: true }).click();
    const editBox = his.getByRole('textbox', { name: 'Edit your comment', exact: true });
    expect(await editBox.inputValue()).toBe('Cheers to that!');
    await editBox.fill('Changed my mind');
    await editBox.press('Escape');
    await his.getByText('Cheers to that!', { exact: true }).waitFor();
    await his.getByRole('button', { name: 'Edit comment', exact: true }).click();
    await editBox.fill('Cheers to that, Alice!');
    const patch = b.waitForResponse((res) => res.request().method() === 'PATCH' && new URL(res.url()).pathname.includes('/comments/'));
    await his.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await patch).status()).toBe(200);
    await his.getByText('Cheers to that, Alice!', { exact: true }).waitFor();
    await his.getByText('(edited)', { exact: true }).waitFor();
    await card.getByText('1 comment', { exact: true }).waitFor();

    // Alice reloads: one like (Bob's avatar), one beer reaction that is not hers, Bob's comment.
    await a.reload();
    await mine.getByText('1 like', { exact: true }).waitFor();
    await mine.getByRole('img', { name: `Liked by ${bob.displayName}`, exact: true }).waitFor();
    expect(await reaction(mine, 'Beer, 1').getAttribute('aria-pressed')).toBe('false');
    await mine.getByText('1 comment', { exact: true }).waitFor();
    const comments = mine.getByRole('button', { name: 'Comments', exact: true });
    expect(await comments.getAttribute('aria-expanded')).toBe('false');
    await comments.click();
    const bobs = mine.getByRole('listitem', { name: `Comment by ${bob.displayName}`, exact: true });
    await bobs.getByText('Cheers to that, Alice!', { exact: true }).waitFor();
    await bobs.getByText('(edited)', { exact: true }).waitFor();
    // Hers to delete (her session), not to edit (his words).
    await bobs.getByRole('button', { name: 'Delete comment', exact: true }).waitFor();
    expect(await bobs.getByRole('button', { name: 'Edit comment', exact: true }).count()).toBe(0);
    await comments.click();
    expect(await mine.getByRole('region', { name: 'Comments', exact: true }).count()).toBe(0);

    // She edits the title: the Edit dialog starts from the session, with the edit presets.
    await mine.getByRole('button', { name: 'Session options', exact: true }).click();
    await a.getByRole('menuitem', { name: 'Edit', exact: true }).click();
    const edit = a.getByRole('dialog', { name: 'Edit Beer Session', exact: true });
    await edit.waitFor();
    expect(await edit.getByLabel('Title', { exact: true }).inputValue()).toBe(title);
    expect(await edit.getByLabel('Beers', { exact: true }).inputValue()).toBe('3');
    const chips = await typeChips(edit).allTextContents();
    expect(chips).toEqual([...EDIT_BEER_TYPES, 'Hazy Pale']);
    expect(await chip(edit, 'IPA').getAttribute('aria-pressed')).toBe('true');
    expect(await chip(edit, 'Pale Ale').getAttribute('aria-pressed')).toBe('false');
    await edit.getByText('Tubthumping', { exact: true }).waitFor();
    await edit.getByRole('img', { name: 'Preview of the session photo', exact: true }).waitFor();
    const renamed = `${title} (edited)`;
    await edit.getByLabel('Title', { exact: true }).fill(renamed);
    const put = a.waitForResponse((res) => res.request().method() === 'PUT' && new URL(res.url()).pathname.startsWith('/api/sessions/'));
    await edit.getByRole('button', { name: 'Save Changes', exact: true }).click();
    expect((await put).status()).toBe(200);
    await expectToast(a, 'Beer session updated successfully!');
    const edited = sessionCard(a, renamed);
    await edited.waitFor();
    expect(await sessionCard(a, title).count()).toBe(0);
    await loaded(edited.getByRole('img', { name: `Photo of ${renamed}`, exact: true }));
    await edited.getByText('1 like', { exact: true }).waitFor();

    // She deletes it after confirming.
    await edited.getByRole('button', { name: 'Session options', exact: true }).click();
    await a.getByRole('menuitem', { name: 'Delete', exact: true }).click();
    const confirm = a.getByRole('dialog', { name: 'Delete Beer Session', exact: true });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectToast(a, 'Beer session deleted successfully!');
    await edited.waitFor({ state: 'detached' });
    await emptyFeed(a).waitFor();

    // Bob no longer sees it.
    await b.reload();
    await reloadUntil(b, async () => (await b.getByRole('article').count()) === 0);
  }, 120_000);
});

describe('a new user', () => {
  it('sees the empty state and the side card; the title is required; the location is refused', async () => {
    const erin = await registerUser(stack.baseUrl, 'erin');
    const page = await openFeed(erin);
    const empty = emptyFeed(page);
    await empty.getByRole('heading', { name: 'No activities yet', exact: true }).waitFor();
    await empty.getByText('Be the first to log a beer session!', { exact: true }).waitFor();

    const side = page.getByRole('region', { name: 'Your profile', exact: true });
    await side.getByText(erin.displayName, { exact: true }).waitFor();
    expect(await side.locator('.avatar--initials').textContent()).toBe('E');
    const stats = await side.getByRole('listitem').allInnerTexts();
    expect(stats.map((text) => text.replace(/\s+/g, ' '))).toEqual(['0 beers This Week', '0h Total Hours', '0 Friends']);
    expect(await side.getByRole('link', { name: 'Find Friends', exact: true }).getAttribute('href')).toBe('/friends');
    await side.getByRole('button', { name: 'Log Session', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Log Session', exact: true }).count()).toBe(1); // no floating button on wide screens

    const dialog = await openLogDialog(page, 'Log Your First Session');
    expect(await dialog.getByLabel('Beers', { exact: true }).inputValue()).toBe('1');
    expect(await dialog.getByLabel('Duration (minutes)', { exact: true }).inputValue()).toBe('60');
    expect(await typeChips(dialog).allTextContents()).toEqual([
      ...CREATE_BEER_TYPES,
    ]);

    const posts: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/sessions') posts.push(req.url());
    });
    await dialog.getByRole('button', { name: 'Log Session', exact: true }).click();
    await dialog.getByText('Title is required', { exact: true }).waitFor();
    await dialog.getByLabel('Title', { exact: true }).fill('   ');
    await dialog.getByLabel('Beers', { exact: true }).fill('0');
    await dialog.getByRole('button', { name: 'Log Session', exact: true }).click();
    await dialog.getByText('Beers must be a whole number, at least 1', { exact: true }).waitFor();
    expect(posts).toEqual([]);

    // No permission for the position: the session form's texts.
    await dialog.getByRole('button', { name: 'Use my location', exact: true }).click();
    await expectToast(page, 'Location Access Required', 'Location access denied by user.');
    // Something was typed: Cancel asks first (issue 40).
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('dialog', { name: 'Discard unsaved changes?', exact: true }).getByRole('button', { name: 'Discard', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('gets a floating add button instead of the side card on narrow screens, and people to follow under the empty feed', async () => {
    const [finn, gus, hal] = await Promise.all([registerUser(stack.baseUrl, 'finn'), registerUser(stack.baseUrl, 'gus'), registerUser(stack.baseUrl, 'hal')]);
    // Gus (no sessions yet) is Finn's friend and Hal's: Hal is a friend of a friend (issue 40: an empty first feed offers people).
    await Promise.all([makeFriends(stack.baseUrl, finn, gus), makeFriends(stack.baseUrl, gus, hal)]);
    const page = await openFeed(finn, { narrow: true });
    await emptyFeed(page).waitFor();
    const suggested = page.getByRole('list', { name: 'People to follow', exact: true }).getByRole('listitem', { name: hal.displayName, exact: true });
    await suggested.getByText('1 friend in common', { exact: true }).waitFor();
    const add = suggested.getByRole('button', { name: 'Add Friend', exact: true });
    const addBox = await add.boundingBox();
    expect((addBox?.x ?? 0) + (addBox?.width ?? 0)).toBeLessThanOrEqual(390);
    await add.click();
    await suggested.getByRole('button', { name: 'Pending', exact: true }).waitFor();
    expect(await page.getByRole('region', { name: 'Your profile', exact: true }).isVisible()).toBe(false);
    const fab = page.locator('.feed-fab');
    expect(await fab.isVisible()).toBe(true);
    const box = await fab.boundingBox();
    const bar = await page.getByRole('navigation', { name: 'Bottom navigation' }).boundingBox();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(bar?.y ?? 0);
    await fab.click();
    await page.getByRole('dialog', { name: 'Log Beer Session', exact: true }).waitFor();
  });
});

describe('the Log dialog keeps typed work (issue 40)', () => {
  it('a title counter that cuts nothing, Enter does not post, Escape asks, a reload restores the draft, a failed submit keeps it', async () => {
    const ivy = await registerUser(stack.baseUrl, 'ivy');
    const page = await openFeed(ivy);
    const posts: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/sessions') posts.push(req.url());
    });
    let dialog = await openLogDialog(page);
    const titleBox = dialog.getByLabel('Title', { exact: true });
    await dialog.getByText('0/100', { exact: true }).waitFor();
    // Past the limit nothing is cut: the counter turns red and the check says so.
    const long = 'A very long title for a very long evening '.repeat(3).slice(0, 105);
    await titleBox.fill(long);
    expect(await titleBox.inputValue()).toBe(long);
    await dialog.getByText('105/100', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Log Session', exact: true }).click();
    await expectFieldError(dialog, 'Title', 'Title must be at most 100 characters');
    const title = `Keep me ${ivy.username}`;
    await titleBox.fill(title);
    // Enter in the ABV field does not post the form.
    await dialog.getByLabel('Avg ABV (%)', { exact: true }).fill('5.2');
    await dialog.getByLabel('Avg ABV (%)', { exact: true }).press('Enter');
    await dialog.getByLabel('Beers', { exact: true }).fill('2');

    // Escape asks; Cancel goes back to the form as it was.
    await page.keyboard.press('Escape');
    const confirm = page.getByRole('dialog', { name: 'Discard unsaved changes?', exact: true });
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await titleBox.inputValue()).toBe(title);
    // So does a click outside.
    await page.mouse.click(5, 5);
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(posts).toEqual([]);

    // A reload (or a closed tab) keeps the draft: the form opens with it.
    await page.reload();
    await expectSignedInFeed(page);
    dialog = await openLogDialog(page);
    await dialog.getByText('Your unsaved draft is back.').waitFor();
    expect(await dialog.getByLabel('Title', { exact: true }).inputValue()).toBe(title);
    expect(await dialog.getByLabel('Avg ABV (%)', { exact: true }).inputValue()).toBe('5.2');
    expect(await dialog.getByLabel('Beers', { exact: true }).inputValue()).toBe('2');

    // A failed submit keeps everything.
    await failNextCall(page, 'POST', /^\/api\/sessions$/);
    await dialog.getByRole('button', { name: 'Log Session', exact: true }).click();
    await expectToast(page, 'Failed to log beer session');
    expect(await dialog.getByLabel('Title', { exact: true }).inputValue()).toBe(title);
    expect(await dialog.getByLabel('Avg ABV (%)', { exact: true }).inputValue()).toBe('5.2');

    // Discarding on purpose forgets it: the next form is empty.
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await confirm.getByRole('button', { name: 'Discard', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    dialog = await openLogDialog(page);
    expect(await dialog.getByLabel('Title', { exact: true }).inputValue()).toBe('');
    expect(await dialog.getByText('Your unsaved draft is back.').count()).toBe(0);
    // Nothing typed: Escape closes at once.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    const drafts = () => page.evaluate(() => Object.keys(window.localStorage).filter((key) => key.startsWith('hoptrack:draft:')));
    expect(await drafts()).toEqual([]);
    // A successful submit forgets the draft too.
    dialog = await openLogDialog(page);
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    expect(await drafts()).toEqual([`hoptrack:draft:${ivy.id}:log-session`]);
    await dialog.getByRole('button', { name: 'Log Session', exact: true }).click();
    await expectToast(page, 'Beer session logged successfully!');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(drafts).toEqual([]);
  });
});

describe('the card, the same on every screen (issue 40, item 16)', () => {
  const title = 'Tall glass';
  let kim: RegisteredUser;

  /** Each button's top, in the group's order. */
  const rowTops = (group: Locator) => group.getByRole('button').evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));

  it('shows a portrait photo whole, one way of saying durations everywhere, and beers this week', async () => {
    kim = await registerUser(stack.baseUrl, 'kim');
    const portrait = await testImage('tall.png', { background: '#b45309', width: 300, height: 600, motif: 'disc' });
    await logSessionViaApi(stack.baseUrl, kim, { title, beerCount: '7', duration: '95' }, portrait);
    const page = await openFeed(kim);
    const card = sessionCard(page, title);
    const photo = card.getByRole('img', { name: `Photo of ${title}`, exact: true });
    await loaded(photo);
    // Not cropped to a wide frame: the whole picture within the frame, the frame no taller than its limit.
    const shown = await photo.evaluate((img: HTMLImageElement) => ({ fit: getComputedStyle(img).objectFit, height: img.getBoundingClientRect().height, rem: parseFloat(getComputedStyle(document.documentElement).fontSize) }));
    expect(shown.fit).toBe('contain');
    expect(shown.height).toBeLessThanOrEqual(26 * shown.rem + 1);
    expect(await card.getByRole('list', { name: 'Session details', exact: true }).getByRole('listitem').allTextContents()).toEqual(['7 beers', '1 h 35 min']);
    await expect.poll(() => page.getByRole('region', { name: 'Your profile', exact: true }).locator('li').first().innerText()).toMatch(/^7 beers\s+This Week$/);

    // The profile's own list says it the same way.
    await page.goto('/profile');
    await page.getByText('1 h 35 min', { exact: true }).waitFor();
    expect(await page.getByText('95 minutes').count()).toBe(0);
  });

  it('on a phone: the reactions in one row, the rest behind +; the Profile tab lit on /profile, not on someone else', async () => {
    const other = await registerUser(stack.baseUrl, 'lou');
    const page = await openFeed(kim, { narrow: true });
    const reactions = sessionCard(page, title).getByRole('group', { name: 'Reactions', exact: true });
    await reactions.waitFor();
    expect(await reactions.getByRole('button').count()).toBe(6);
    expect(new Set(await rowTops(reactions)).size).toBe(1);
    const more = reactions.getByRole('button', { name: 'More reactions', exact: true });
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await more.click();
    await reactions.getByRole('button', { name: 'Raised hands', exact: true }).click();
    await expect.poll(() => reactions.getByRole('button', { name: 'Raised hands, 1', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await reactions.getByRole('button', { name: 'Fewer reactions', exact: true }).click();
    // Used, so now among the first few, and still one row.
    await reactions.getByRole('button', { name: 'Raised hands, 1', exact: true }).waitFor();
    expect(await reactions.getByRole('button').count()).toBe(6);
    expect(new Set(await rowTops(reactions)).size).toBe(1);

    const tab = page.getByRole('navigation', { name: 'Bottom navigation' }).getByRole('link', { name: 'Profile', exact: true });
    for (const path of ['/profile', `/profile/${kim.username}`, '/my-profile']) {
      await page.goto(path);
      await expect.poll(() => tab.getAttribute('aria-current'), { message: path }).toBe('page');
    }
    await page.goto(`/profile/${other.username}`);
    await page.getByText(`@${other.username}`).first().waitFor();
    expect(await tab.getAttribute('aria-current')).toBeNull();
  });
});

describe('the Log dialog pickers', () => {
  it('suggests bars after 2 characters, fills the place from Find Venues and the browser, and keeps types unique', async () => {
    const gina = await registerUser(stack.baseUrl, 'gina');
    const page = await openFeed(gina, { geolocation: DENVER });
    // The browser's clock, so that the suggestions' typing pause can be made to pass for sure.
    await page.clock.install();
    await page.reload();
    const dialog = await openLogDialog(page);
    const searches: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname === '/api/bars/search') searches.push(url.searchParams.get('q') ?? '');
    });

    // Suggestions: nothing for 2 characters, bars for more. The clock runs past the typing pause,
    // so a search for 'Pi', had it been made, would come before the one for 'Pints'.
    const place = dialog.getByRole('combobox', { name: 'Location', exact: true });
    await place.fill('Pi');
    await page.clock.runFor(1000);
    expect(await place.getAttribute('aria-expanded')).toBe('false');
    await place.fill('Pints');
    await page.clock.runFor(1000);
    const suggestions = dialog.getByRole('listbox', { name: 'Location suggestions', exact: true });
    await suggestions.getByRole('option', { name: new RegExp(`^${NEAREST}`) }).first().click();
    expect(await place.inputValue()).toBe(NEAREST);
    expect(searches).toEqual(['Pints']);
    await dialog.getByText('Position added', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Clear coordinates', exact: true }).click();

    // The browser's position.
    await dialog.getByRole('button', { name: 'Use my location', exact: true }).click();
    await expectToast(page, 'Location Found');
    await dialog.locator('a[href*="mlat=39.739200&mlon=-104.990300"]', { hasText: 'Open in maps' }).waitFor();

    // Find Venues (a dialog over the dialog): searching there does not submit the session.
    await place.fill('');
    await dialog.getByRole('button', { name: 'Find Venues', exact: true }).click();
    const venues = page.getByRole('dialog', { name: 'Find Venues', exact: true });
    await venues.getByRole('searchbox', { name: 'Search places', exact: true }).fill('Pints');
    await venues.getByRole('button', { name: 'Search', exact: true }).click();
    await venues.getByRole('list', { name: 'Venue search results', exact: true }).getByRole('button', { name: new RegExp(`^${NEAREST}`) }).first().click();
    await venues.waitFor({ state: 'detached' });
    await dialog.waitFor();
    expect(await place.inputValue()).toBe(NEAREST);

    // Custom types: trimmed, never twice (a preset in another case is the preset).
    const custom = dialog.getByLabel('Custom beer type', { exact: true });
    await custom.fill(' ipa ');
    await custom.press('Enter');
    expect(await chip(dialog, 'IPA').getAttribute('aria-pressed')).toBe('true');
    await custom.fill('IPA');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.getByText('IPA is already added', { exact: true }).waitFor();
    await custom.fill('Gose');
    await custom.press('Enter');
    await chip(dialog, 'Gose').waitFor();

    // Music: the mock answers after a moment; a track is chosen, removed, chosen again.
    const music = dialog.getByRole('searchbox', { name: 'Search music', exact: true });
    await music.fill('garth');
    await dialog.getByText('Searching...', { exact: true }).waitFor();
    const results = dialog.getByRole('list', { name: 'Music results', exact: true });
    await results.waitFor();
    expect(await results.getByRole('listitem').count()).toBe(1);
    await results.getByRole('button', { name: /Friends in Low Places/ }).click();
    await dialog.getByRole('button', { name: 'Remove track', exact: true }).click();
    await music.fill('zzzz');
    await dialog.getByText('No tracks found', { exact: true }).waitFor();
    await music.fill('Rihanna');
    await results.getByRole('button', { name: /Cheers \(Drink to That\)/ }).click();

    // A song that is not built in, typed by hand (issue 40, item 10): both parts required; Enter adds it, never logs the session.
    await dialog.getByRole('button', { name: 'Remove track', exact: true }).click();
    await music.fill('Whiskey');
    await dialog.getByRole('button', { name: 'Type a song instead', exact: true }).click();
    const songTitle = dialog.getByLabel('Song title', { exact: true });
    expect(await songTitle.inputValue()).toBe('Whiskey');
    await songTitle.fill('Whiskey in the Jar');
    await dialog.getByRole('button', { name: 'Add song', exact: true }).click();
    await dialog.getByRole('alert').getByText('Artist is required', { exact: true }).waitFor();
    expect(await dialog.getByLabel('Artist', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Artist', { exact: true }).fill('  Thin Lizzy ');
    await dialog.getByLabel('Artist', { exact: true }).press('Enter');
    const chosen = dialog.getByRole('group', { name: 'Music', exact: true });
    await chosen.getByText('Whiskey in the Jar', { exact: true }).waitFor();
    await chosen.getByText('Thin Lizzy', { exact: true }).waitFor();
    await dialog.waitFor(); // Enter did not log it

    await dialog.getByLabel('Title', { exact: true }).fill('Pub quiz night');
    await dialog.getByRole('button', { name: 'Log Session', exact: true }).click();
    await expectToast(page, 'Beer session logged successfully!');
    // On the card like the built-in ones: the name, and the artist alone (no album, no length known).
    const cardMusic = sessionCard(page, 'Pub quiz night').getByLabel('Music', { exact: true });
    await cardMusic.getByText('Whiskey in the Jar', { exact: true }).waitFor();
    expect(await cardMusic.locator('.track-line__details').textContent()).toBe('Thin Lizzy');

    const [logged] = (await expectApi(stack.baseUrl, gina.token, 'GET', '/api/me/sessions')) as FeedSession[];
    expect(logged).toMatchObject({
      title: 'Pub quiz night',
      location: NEAREST,
      beerCount: 1,
      duration: 60,
      beerTypes: ['IPA', 'Gose'],
      musicTrack: { name: 'Whiskey in the Jar', artist: 'Thin Lizzy', album: null, duration: 0, service: 'manual' },
    });
    expect(logged?.latitude).toMatch(/^-?\d+\.\d+$/);
    expect(logged?.longitude).toMatch(/^-?\d+\.\d+$/);
  }, 90_000);
});

describe('paging and filters', () => {
  it('loads the next page with the cursor, sends the filter and shows relative times', async () => {
    const hank = await registerUser(stack.baseUrl, 'hank');
    const total = FEED_PAGE_DEFAULT + 2;
    for (let index = 1; index <= total; index += 1) {
      await logSessionViaApi(stack.baseUrl, hank, { title: `Round ${String(index).padStart(2, '0')}`, beerCount: '1', duration: '30' });
    }

    const page = await openFeed(hank);
    const firstPages: { cursor: string | null }[] = [];
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname === '/api/sessions' && !url.searchParams.has('cursor')) firstPages.push({ cursor: res.headers()[NEXT_CURSOR_HEADER] ?? null });
    });
    await page.reload();
    await reloadUntil(page, async () => (await feedCards(page).count()) === FEED_PAGE_DEFAULT);
    const titles = await feedCards(page).getByRole('heading', { level: 2 }).allTextContents();
    expect(titles[0]).toBe(`Round ${total}`);
    expect(titles[FEED_PAGE_DEFAULT - 1]).toBe('Round 03');
    const cursor = firstPages.at(-1)?.cursor;
    expect(cursor).toBeTruthy();

    const next = page.waitForRequest((req) => new URL(req.url()).searchParams.has('cursor'));
    await page.getByRole('button', { name: 'Load More Activities', exact: true }).click();
    const nextUrl = new URL((await next).url());
    expect(nextUrl.searchParams.get('cursor')).toBe(cursor);
    expect(nextUrl.searchParams.get('filter')).toBe('all');
    await expect.poll(() => feedCards(page).count()).toBe(total);
    expect((await feedCards(page).getByRole('heading', { level: 2 }).allTextContents()).at(-1)).toBe('Round 01');
    expect(await page.getByRole('button', { name: 'Load More Activities' }).count()).toBe(0);

    // The filter is sent to the server.
    const mine = page.waitForRequest((req) => new URL(req.url()).searchParams.get('filter') === 'mine');
    await page.getByRole('combobox', { name: 'Filter activities' }).selectOption('mine');
    expect(new URL((await mine).url()).pathname).toBe('/api/sessions');
    await expect.poll(() => feedCards(page).count()).toBe(FEED_PAGE_DEFAULT);

    // A failed like says so, with the server's reason.
    await page.route('**/api/sessions/*/like', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'Try again later' }) }),
    );
    await feedCards(page).first().getByRole('button', { name: 'Like', exact: true }).click();
    await expectToast(page, 'Failed to update like status', 'Try again later');
    expect(await feedCards(page).first().getByRole('button', { name: 'Like', exact: true }).getAttribute('aria-pressed')).toBe('false');
    await page.unroute('**/api/sessions/*/like');
    await dismissToast(page);

    // Offline (issue 40): the like shows at once, then reverts and says what happened; the loaded feed stays.
    const cardsShown = await feedCards(page).count();
    const firstLike = feedCards(page).first().getByRole('button', { name: 'Like', exact: true });
    await page.route('**/api/sessions/*/like', (route) => route.abort('internetdisconnected'));
    await firstLike.click();
    await expect.poll(() => firstLike.getAttribute('aria-pressed')).toBe('true');
    await expectToast(page, 'Failed to update like status', UNREACHABLE_WRITE);
    expect(await firstLike.getAttribute('aria-pressed')).toBe('false');
    expect(await feedCards(page).count()).toBe(cardsShown);
    expect(await page.getByText('Failed to fetch sessions').count()).toBe(0);
    await page.unroute('**/api/sessions/*/like');
    await dismissToast(page);
    // A refresh that fails over loaded cards keeps them, with a small note and a retry.
    await failNextCall(page, 'GET', /^\/api\/sessions$/);
    await firstLike.click();
    const stale = page.getByRole('status').filter({ hasText: 'Couldn’t refresh — showing what was loaded.' });
    await stale.waitFor();
    expect(await feedCards(page).count()).toBe(cardsShown);
    expect(await firstLike.getAttribute('aria-pressed')).toBe('true');
    await stale.getByRole('button', { name: 'Try again', exact: true }).click();
    await stale.waitFor({ state: 'detached' });
    expect(await feedCards(page).count()).toBe(cardsShown);

    // Relative times (spec section 9 and issue 40's one wording): 'Just now', then minutes, hours, yesterday, days.
    await feedCards(page).first().getByText('Just now', { exact: true }).waitFor();
    const created = Date.parse((await feedCards(page).first().locator('time').first().getAttribute('datetime')) ?? '');
    await page.clock.setFixedTime(created + 12 * 60 * 1000 + 30_000);
    await page.reload();
    await feedCards(page).first().getByText('12 min ago', { exact: true }).waitFor();
    await page.clock.setFixedTime(created + 59 * 60 * 1000 + 30_000);
    await page.reload();
    await feedCards(page).first().getByText('59 min ago', { exact: true }).waitFor();
    await page.clock.setFixedTime(Date.now() + 3 * 60 * 60 * 1000 + 60_000);
    await page.reload();
    await feedCards(page).first().getByText('3h ago', { exact: true }).waitFor();
    await page.clock.setFixedTime(Date.now() + 30 * 60 * 60 * 1000);
    await page.reload();
    await feedCards(page).first().getByText('Yesterday', { exact: true }).waitFor();
    await page.clock.setFixedTime(Date.now() + 2 * 24 * 60 * 60 * 1000 + 60_000);
    await page.reload();
    await feedCards(page).first().getByText('2d ago', { exact: true }).waitFor();
    // After a week, the date.
    await page.clock.setFixedTime(Date.now() + 9 * 24 * 60 * 60 * 1000);
    await page.reload();
    const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(created));
    await feedCards(page).first().locator('time').first().getByText(day, { exact: true }).waitFor();
  }, 90_000);
});
