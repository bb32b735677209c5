import { PROFILE_PICTURE_MAX_BYTES, type CurrentUser, type FeedSession } from '@hoptrack/proto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  dismissToast,
  expectApi,
  expectFieldError,
  expectToast,
  logSessionViaApi,
  makeFriends,
  registerUser,
  useE2eStack,
} from './support';
import { axeProblems } from './a11y';
import { testImage } from './images';
import { CONDITION_BOUND_MS } from '@hoptrack/testing/bounds';

/**
 * The own profile screen and its change-picture dialog (issue 4) against the
 * real stack: stats from /api/me/stats, the activities' empty state, the
 * client's refusals, and a real PNG going through the media service to the
 * header avatar.
 */
const stack = useE2eStack();

const BIO = 'Stouts in winter, sours in summer.';
const MEDIA_FILE = /^\/api\/media\/files\/\S+$/;

/** The tiles as 'label: value', in order. */
async function tiles(page: Page): Promise<string[]> {
  const stats = page.getByRole('region', { name: 'Stats', exact: true });
  await stats.waitFor();
  const labels = await stats.locator('.stat-tile__label').allTextContents();
  const values = await stats.locator('.stat-tile__value').allTextContents();
  return labels.map((label, index) => `${label}: ${values[index]}`);
}

/** Records every call of the picture flow: '<method> <path>'. */
function recordPictureCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (/^\/api\/(profile-picture|media\/|me\/profile-picture)/.test(pathname)) calls.push(`${request.method()} ${pathname}`);
  });
  return calls;
}

/** A real PNG, drawn by the browser's canvas. */
async function drawPng(page: Page, width: number, height: number): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    ([w, h]) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      context.fillStyle = '#b45309';
      context.fillRect(0, 0, w, h);
      context.fillStyle = '#fde68a';
      context.beginPath();
      context.arc(w / 2, h / 2, Math.min(w, h) / 3, 0, Math.PI * 2);
      context.fill();
      return canvas.toDataURL('image/png');
    },
    [width, height] as const,
  );
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}

async function openPictureDialog(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Change picture', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Change profile picture' });
  await dialog.waitFor();
  return dialog;
}

function uploadButton(dialog: Locator): Locator {
  return dialog.getByRole('button', { name: 'Upload', exact: true });
}

/** The image's `src` once it has loaded with real pixels. */
async function loadedSrc(image: Locator): Promise<string> {
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const src = await image.getAttribute('src');
  expect(src).not.toBeNull();
  return src ?? '';
}

function headerAvatar(page: Page): Locator {
  return page.getByRole('button', { name: 'Account menu' }).locator('img');
}

describe('own profile', () => {
  it('shows the header, zero stats and the empty activities; /my-profile is the same screen', async () => {
    const alice = await registerUser(stack.baseUrl, 'alice');
    await expectApi(stack.baseUrl, alice.token, 'PATCH', '/api/me', { bio: BIO });
    const page = await stack.openAs(alice, '/profile');
    const sessionCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.includes('/sessions')) sessionCalls.push(request.url());
    });

    await page.getByRole('heading', { level: 1, name: 'My Profile', exact: true }).waitFor();
    const header = page.getByRole('region', { name: 'Profile', exact: true });
    await header.getByRole('heading', { level: 2, name: alice.displayName, exact: true }).waitFor();
    await header.getByText(`@${alice.username}`, { exact: true }).waitFor();
    await header.getByText(BIO, { exact: true }).waitFor();
    // No picture yet: the initial on a disc.
    expect(await header.locator('.avatar--initials').textContent()).toBe('A');
    expect(await tiles(page)).toEqual(['This Week: 0 beers', 'Total Hours: 0h', 'Followers: 0', 'Following: 0']);
    expect(await page.getByRole('link', { name: /Followers/ }).getAttribute('href')).toBe(`/users/${alice.id}/followers`);
    expect(await page.getByRole('link', { name: /Following/ }).getAttribute('href')).toBe(`/users/${alice.id}/followers?tab=following`);

    const activities = page.getByRole('region', { name: 'My Activities', exact: true });
    await activities.getByRole('heading', { name: 'No activities yet', exact: true }).waitFor();
    await activities.getByText('Log your first beer session to see it here.', { exact: true }).waitFor();

    // A friend follows and is followed.
    const bob = await registerUser(stack.baseUrl, 'bob');
    await makeFriends(stack.baseUrl, alice, bob);
    await page.reload();
    expect(await tiles(page)).toEqual(['This Week: 0 beers', 'Total Hours: 0h', 'Followers: 1', 'Following: 1']);

    await page.goto('/my-profile');
    await page.getByRole('heading', { level: 1, name: 'My Profile', exact: true }).waitFor();
    await page.getByRole('heading', { level: 2, name: alice.displayName, exact: true }).waitFor();
    expect(await tiles(page)).toEqual(['This Week: 0 beers', 'Total Hours: 0h', 'Followers: 1', 'Following: 1']);
    expect(new Set(sessionCalls.map((url) => new URL(url).pathname))).toEqual(new Set(['/api/me/sessions']));
  });

  it("lists the own sessions in 'My Activities', and a friend sees them with their photos on the Beer Sessions tab", async () => {
    const gus = await registerUser(stack.baseUrl, 'gus');
    const hana = await registerUser(stack.baseUrl, 'hana');
    await makeFriends(stack.baseUrl, gus, hana);
    const photo = await testImage('pint.png', { background: '#b45309' });
    await logSessionViaApi(stack.baseUrl, gus, { title: 'Quiet one', beerCount: '1', duration: '30' });
    await logSessionViaApi(
      stack.baseUrl,
      gus,
      { title: 'Taproom crawl', beerCount: '4', duration: '150', avgAbv: '6.1', location: 'The Local Taproom', beerTypes: '["IPA"]' },
      photo,
    );

    const page = await stack.openAs(gus, '/profile');
    const list = page.getByRole('list', { name: 'My activities', exact: true });
    await list.waitFor();
    expect(await list.getByRole('listitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')))).toEqual([
      'Taproom crawl',
      'Quiet one',
    ]);
    const crawl = list.getByRole('listitem', { name: 'Taproom crawl', exact: true });
    // Its title and date are links to the session's page (issue 40); following one opens it.
    const crawlHref = await crawl.getByRole('heading', { level: 3 }).getByRole('link').getAttribute('href');
    expect(crawlHref).toMatch(/^\/sessions\/[0-9a-f-]{36}$/);
    expect(await crawl.locator('a:has(time)').getAttribute('href')).toBe(crawlHref);
    const today = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(new Date());
    await crawl.getByText(today, { exact: true }).waitFor();
    for (const text of ['4 beers', '2 h 30 min', '6.1% ABV', '📍 The Local Taproom']) await crawl.getByText(text, { exact: true }).waitFor();
    expect(await list.getByRole('listitem', { name: 'Quiet one', exact: true }).getByText('% ABV').count()).toBe(0);

    // The stats count the sessions once their events reach the social graph.
    await expect
      .poll(
        async () => {
          await page.reload();
          return tiles(page);
        },
        { timeout: CONDITION_BOUND_MS, interval: 1000 },
      )
      .toEqual(['This Week: 5 beers', 'Total Hours: 3h', 'Followers: 1', 'Following: 1']);

    // Hana, a friend, on Gus's public profile.
    const other = await stack.openAs(hana, `/users/${gus.id}`);
    const sessions = other.getByRole('list', { name: 'Beer sessions', exact: true });
    await sessions.waitFor();
    const item = sessions.getByRole('listitem', { name: 'Taproom crawl', exact: true });
    for (const text of ['4 beers', '2 h 30 min', '6.1% ABV', '📍 The Local Taproom', '0 likes']) await item.getByText(text, { exact: true }).waitFor();
    const photos = item.getByRole('list', { name: 'Photos', exact: true });
    expect(await photos.getByRole('img').count()).toBe(1);
    await loadedSrc(photos.getByRole('img', { name: 'Photo 1 of Taproom crawl', exact: true }));
    expect(await sessions.getByRole('listitem', { name: 'Quiet one', exact: true }).getByRole('list', { name: 'Photos' }).count()).toBe(0);
    // A friend opens it from its photo: the session's page, its card.
    expect(await photos.getByRole('link').getAttribute('href')).toBe(crawlHref);
    await photos.getByRole('link').click();
    await other.waitForURL(`${stack.baseUrl}${crawlHref}`);
    await other.getByRole('heading', { level: 1, name: 'Taproom crawl', exact: true }).waitFor();
    await other.getByRole('article', { name: 'Taproom crawl', exact: true }).getByRole('img', { name: 'Photo of Taproom crawl', exact: true }).waitFor();
  });
});

describe('several photos per session (issue 25)', () => {
  it("logs a session with four photos through the Log dialog: the card shows them all, the profile's list three then '+1'", async () => {
    const ivy = await registerUser(stack.baseUrl, 'ivy');
    const jon = await registerUser(stack.baseUrl, 'jon');
    await makeFriends(stack.baseUrl, ivy, jon);
    const title = `Four glasses ${ivy.username}`;
    const colours = ['#b45309', '#1d4ed8', '#15803d', '#be123c'];
    const files = await Promise.all(colours.map((background, i) => testImage(`glass-${i + 1}.png`, { background })));

    const page = await stack.openAs(ivy, '/');
    await page.getByRole('heading', { level: 1, name: 'Activity Feed' }).waitFor();
    await page.getByRole('button', { name: 'Log Session', exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Log Beer Session', exact: true });
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    // Two picks add up (the picker keeps the last 10): three, then one more.
    await dialog.getByLabel('Select Photo', { exact: true }).setInputFiles(files.slice(0, 3));
    await dialog.getByLabel('Select Photo', { exact: true }).setInputFiles(files.slice(3));
    const previews = dialog.getByRole('list', { name: 'Session photos', exact: true });
    for (let i = 1; i <= 4; i++) await loadedSrc(previews.getByRole('img', { name: `Preview of session photo ${i} of 4`, exact: true }));
    await dialog.getByText('4 of 10', { exact: true }).waitFor();
    expect(await axeProblems(page, 'Log Beer Session with 4 photos')).toEqual([]);

    const posted = page.waitForRequest((req) => req.method() === 'POST' && new URL(req.url()).pathname === '/api/sessions');
    await dialog.getByRole('button', { name: 'Log Session', exact: true }).click();
    const response = await (await posted).response();
    expect(response?.status()).toBe(201);
    // The browser's multipart body is not readable here (files are blobs): the answer says what was stored.
    expect(((await response?.json()) as FeedSession | undefined)?.photos).toHaveLength(4);
    await dialog.waitFor({ state: 'detached' });

    // The card: the first photo large, four thumbnails to choose another.
    const card = page.getByRole('article', { name: title, exact: true });
    const gallery = card.getByRole('group', { name: `Photos of ${title}`, exact: true });
    const first = await loadedSrc(gallery.getByRole('img', { name: `Photo 1 of 4: ${title}`, exact: true }));
    const thumbs = gallery.getByRole('button', { name: /^Show photo \d of 4$/ });
    expect(await thumbs.count()).toBe(4);
    expect(await gallery.getByRole('button', { name: 'Show photo 1 of 4', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await gallery.getByRole('button', { name: 'Show photo 3 of 4', exact: true }).click();
    const third = await loadedSrc(gallery.getByRole('img', { name: `Photo 3 of 4: ${title}`, exact: true }));
    expect(third).not.toBe(first);
    expect(await gallery.getByRole('button', { name: 'Show photo 3 of 4', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(await axeProblems(page, 'feed card with 4 photos')).toEqual([]);

    // Jon, a friend, on Ivy's public profile: three thumbnails in the order picked, then '+1'.
    const other = await stack.openAs(jon, `/users/${ivy.id}`);
    const item = other.getByRole('list', { name: 'Beer sessions', exact: true }).getByRole('listitem', { name: title, exact: true });
    await item.waitFor();
    const photos = item.getByRole('list', { name: 'Photos', exact: true });
    expect(await photos.getByRole('img').count()).toBe(3);
    for (let i = 1; i <= 3; i++) await loadedSrc(photos.getByRole('img', { name: `Photo ${i} of ${title}`, exact: true }));
    const more = photos.getByRole('listitem', { name: '1 more photos', exact: true });
    expect(await more.textContent()).toBe('+1');
    // The same photos as the card, in the same order (signed per viewer, so compared by their path).
    const pathOf = (url: string) => url.split('?')[0];
    expect(pathOf(await loadedSrc(photos.getByRole('img', { name: `Photo 1 of ${title}`, exact: true })))).toBe(pathOf(first));
    expect(pathOf(await loadedSrc(photos.getByRole('img', { name: `Photo 3 of ${title}`, exact: true })))).toBe(pathOf(third));
  });
});

describe('edit profile', () => {
  it('checks the display name, saves name and bio with PATCH /api/me, and a friend sees them', async () => {
    const alice = await registerUser(stack.baseUrl, 'alice');
    const bob = await registerUser(stack.baseUrl, 'bob');
    await makeFriends(stack.baseUrl, alice, bob);
    const page = await stack.openAs(alice, '/profile');
    const header = page.getByRole('region', { name: 'Profile', exact: true });
    await header.getByRole('heading', { level: 2, name: alice.displayName, exact: true }).waitFor();

    await header.getByRole('button', { name: 'Edit Profile', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Profile', exact: true });
    expect(await dialog.getByLabel('Display Name', { exact: true }).inputValue()).toBe(alice.displayName);
    expect(await dialog.getByLabel('Bio', { exact: true }).getAttribute('maxlength')).toBe('200');

    // A blank name is refused in the browser, without a call.
    let patches = 0;
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && new URL(request.url()).pathname === '/api/me') patches += 1;
    });
    await dialog.getByLabel('Display Name', { exact: true }).fill('   ');
    await dialog.getByRole('button', { name: 'Save Profile', exact: true }).click();
    await dialog.getByRole('alert').getByText('Display name is required', { exact: true }).waitFor();
    expect(await dialog.getByLabel('Display Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(patches).toBe(0);

    await dialog.getByLabel('Display Name', { exact: true }).fill('  Alice Amber ');
    await dialog.getByLabel('Bio', { exact: true }).fill(BIO);
    const saved = page.waitForResponse((res) => res.request().method() === 'PATCH' && new URL(res.url()).pathname === '/api/me');
    await dialog.getByRole('button', { name: 'Save Profile', exact: true }).click();
    const answer = await saved;
    expect(answer.status()).toBe(200);
    expect(answer.request().postDataJSON()).toEqual({ displayName: 'Alice Amber', bio: BIO });
    await expectToast(page, 'Profile updated');
    await dialog.waitFor({ state: 'detached' });
    await header.getByRole('heading', { level: 2, name: 'Alice Amber', exact: true }).waitFor();
    await header.getByText(BIO, { exact: true }).waitFor();

    // Stored: after a reload, and for a friend once the social graph heard of it.
    await page.reload();
    await header.getByText(BIO, { exact: true }).waitFor();
    await expect
      .poll(async () => ((await expectApi(stack.baseUrl, bob.token, 'GET', `/api/users/${alice.id}`)) as { bio: string | null }).bio, { timeout: CONDITION_BOUND_MS })
      .toBe(BIO);
    const friendView = await stack.openAs(bob, `/users/${alice.id}`);
    await friendView.getByRole('heading', { level: 1, name: 'Alice Amber', exact: true }).waitFor();
    await friendView.getByText(BIO, { exact: true }).waitFor();
  });

  it('keeps what was typed and says so when saving fails', async () => {
    const alice = await registerUser(stack.baseUrl, 'alice');
    const page = await stack.openAs(alice, '/profile');
    await page.getByRole('button', { name: 'Edit Profile', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Profile', exact: true });
    const bio = dialog.getByLabel('Bio', { exact: true });
    await bio.fill('Lagers only.');
    // Issue 40, item 16: the limit shows as what is left, and a paste that would not fit is refused whole, saying so.
    const left = dialog.getByText(/characters? left/);
    await expect.poll(() => left.textContent()).toBe('188 characters left');
    expect((await bio.getAttribute('aria-describedby'))?.split(' ')).toContain(await left.getAttribute('id'));
    await bio.evaluate((element, text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, 'x'.repeat(190));
    await dialog.getByText('That paste is 2 characters too long, so nothing was added (200 at most). 188 characters left.').waitFor();
    expect(await bio.inputValue()).toBe('Lagers only.');
    // A healthy auth service does not fail on demand: this one call fails at the network edge.
    await page.route('**/api/me', (route) =>
      route.request().method() === 'PATCH' ? route.fulfill({ status: 500, body: '' }) : route.fallback(),
    );
    await dialog.getByRole('button', { name: 'Save Profile', exact: true }).click();
    await expectToast(page, 'Error', 'Failed to update profile. Please try again.');
    expect(await bio.inputValue()).toBe('Lagers only.');
  });
});

describe('change profile picture', () => {
  it('uploads a real PNG: preview, the three calls, the header avatar, and after a reload', async () => {
    const dave = await registerUser(stack.baseUrl, 'dave');
    const page = await stack.openAs(dave, '/profile');
    const dialog = await openPictureDialog(page);
    expect(await uploadButton(dialog).isDisabled()).toBe(true);
    expect(await dialog.getByLabel('Select Photo').getAttribute('accept')).toBe('image/*');

    const png = await drawPng(page, 240, 160);
    await dialog.getByLabel('Select Photo').setInputFiles({ name: 'pint.png', mimeType: 'image/png', buffer: png });
    await loadedSrc(dialog.getByRole('img', { name: 'Preview of the selected photo' }));
    await dialog.getByText('pint.png', { exact: true }).waitFor();

    const calls = recordPictureCalls(page);
    const stored = page.waitForRequest((request) => request.method() === 'PUT' && new URL(request.url()).pathname.startsWith('/api/media/uploads/'));
    await uploadButton(dialog).click();
    await expectToast(page, 'Profile picture updated');
    await dialog.waitFor({ state: 'detached' });

    // The signed URL takes the bytes with their type and no Bearer token (Playwright does not expose a File body).
    const upload = await stored;
    expect(await upload.headerValue('content-type')).toBe('image/png');
    expect(await upload.headerValue('authorization')).toBeNull();
    const answer = await upload.response();
    expect(answer?.status()).toBe(200);
    expect(await answer?.json()).toMatchObject({ url: expect.stringMatching(MEDIA_FILE), contentType: 'image/webp' });
    expect(calls.slice(0, 3)).toEqual([
      'POST /api/profile-picture/upload',
      `PUT ${new URL(upload.url()).pathname}`,
      'PUT /api/me/profile-picture',
    ]);

    // The header avatar and the profile avatar show the stored picture at once, as /api/me says.
    const src = await loadedSrc(headerAvatar(page));
    expect(src).toMatch(MEDIA_FILE);
    expect(await loadedSrc(page.getByRole('region', { name: 'Profile', exact: true }).locator('img'))).toBe(src);
    const me = (await expectApi(stack.baseUrl, dave.token, 'GET', '/api/me')) as CurrentUser;
    expect(me.profilePicture).toBe(src);
    const served = await fetch(`${stack.baseUrl}${src}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');

    await page.reload();
    expect(await loadedSrc(headerAvatar(page))).toBe(src);

    // Issue 40: 'Remove picture' goes back to the initials, here and on the server.
    const again = await openPictureDialog(page);
    const removed = page.waitForResponse((res) => res.request().method() === 'DELETE' && new URL(res.url()).pathname === '/api/me/profile-picture');
    await again.getByRole('button', { name: 'Remove picture', exact: true }).click();
    expect((await removed).status()).toBe(200);
    await expectToast(page, 'Profile picture removed');
    await again.waitFor({ state: 'detached' });
    await headerAvatar(page).waitFor({ state: 'detached' });
    expect(((await expectApi(stack.baseUrl, dave.token, 'GET', '/api/me')) as CurrentUser).profilePicture).toBeNull();
    // Nothing to remove any more: the button is not offered.
    const empty = await openPictureDialog(page);
    expect(await empty.getByRole('button', { name: 'Remove picture' }).count()).toBe(0);
  });

  it('refuses a non-image and a 5MB image in the browser, without any call', async () => {
    const erin = await registerUser(stack.baseUrl, 'erin');
    const page = await stack.openAs(erin, '/profile');
    const dialog = await openPictureDialog(page);
    const calls = recordPictureCalls(page);
    const input = dialog.getByLabel('Select Photo');

    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await expectToast(page, 'Invalid file type', 'Please select an image file.');
    await dismissToast(page);

    const big = Buffer.alloc(PROFILE_PICTURE_MAX_BYTES);
    await input.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: big });
    await expectToast(page, 'File too large', 'Please select an image smaller than 5MB.');

    expect(await uploadButton(dialog).isDisabled()).toBe(true);
    expect(await dialog.getByRole('img', { name: 'Preview of the selected photo' }).count()).toBe(0);
    expect(calls).toEqual([]);
  });

  it('says the upload failed when the server refuses the bytes, and keeps the old picture', async () => {
    const finn = await registerUser(stack.baseUrl, 'finn');
    const page = await stack.openAs(finn, '/profile');
    const dialog = await openPictureDialog(page);
    const calls = recordPictureCalls(page);

    // A real PNG the media service refuses (answered at the network edge: the browser now refuses what media would, issue 40).
    await page.route(
      (url) => url.pathname.startsWith('/api/media/uploads/'),
      (route) =>
        route.request().method() === 'PUT'
          ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'File is not a supported image (JPEG, PNG, WebP, GIF or AVIF)' }) })
          : route.fallback(),
    );
    await dialog.getByLabel('Select Photo').setInputFiles({ name: 'pint.png', mimeType: 'image/png', buffer: await drawPng(page, 64, 64) });
    await uploadButton(dialog).click();
    await expectToast(page, 'Upload failed', 'Failed to update your profile picture. Please try again.');
    // The server's reason stands at the field too.
    await expectFieldError(dialog, 'Select Photo', 'File is not a supported image (JPEG, PNG, WebP, GIF or AVIF)');

    await dialog.waitFor();
    expect(await uploadButton(dialog).isEnabled()).toBe(true);
    expect(calls.filter((call) => call === 'PUT /api/me/profile-picture')).toEqual([]);
    expect(calls[0]).toBe('POST /api/profile-picture/upload');
    const me = (await expectApi(stack.baseUrl, finn.token, 'GET', '/api/me')) as CurrentUser;
    expect(me.profilePicture).toBeNull();
    expect(await headerAvatar(page).count()).toBe(0);
  });
});
