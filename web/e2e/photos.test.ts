import { PHOTO_PICKER_MAX, SESSION_PHOTOS_MAX, type Album, type Photo } from '@hoptrack/proto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  dismissToast,
  expectApi,
  expectFieldError,
  expectToast,
  logSessionViaApi,
  registerUser,
  signInWithToken,
  useE2eStack,
  type RegisteredUser,
  type UploadFile,
} from './support';
import { testImage } from './images';
import { NOT_A_SUPPORTED_IMAGE } from '../src/lib/imageCheck';
import { expectNoSidewaysScroll } from './layout';
import { CONDITION_BOUND_MS } from '@hoptrack/testing/bounds';

/**
 * /photos (spec section 2) against the real stack: albums, the add-photos
 * picker, thumbnails made by the media worker, search, the viewer and the
 * deletes with their confirmations; failures and odd states by route mocks.
 */
const stack = useE2eStack();

/** A small solid-colour image, really encoded (the server decodes every upload). */
const image = (name: string, background: string, width = 64, height = 48): Promise<UploadFile> => testImage(name, { background, width, height });

function albumCard(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Albums', exact: true }).getByRole('listitem', { name, exact: true });
}

function photoGrid(page: Page): Locator {
  return page.getByRole('list', { name: 'Photos', exact: true });
}

function photoTile(page: Page, name: string): Locator {
  return photoGrid(page).getByRole('listitem', { name, exact: true });
}

/** True once the image has loaded real pixels. */
function loaded(img: Locator): Promise<boolean> {
  return img.evaluate((element) => element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0);
}

const isPath = (pathname: string, method: string) => (request: { url(): string; method(): string }) =>
  request.method() === method && new URL(request.url()).pathname === pathname;

async function createAlbumViaApi(user: RegisteredUser, name: string): Promise<Album> {
  return (await expectApi(stack.baseUrl, user.token, 'POST', '/api/albums', { name }, 201)) as Album;
}

describe('photos', () => {
  it('creates an album, adds two photos, searches, views and deletes them, then deletes the album', async () => {
    const alice = await registerUser(stack.baseUrl, 'alice');
    const page = await stack.openAs(alice, '/photos');
    await page.getByRole('heading', { level: 1, name: 'Photos' }).waitFor();
    await page.getByRole('heading', { name: 'No albums yet', exact: true }).waitFor();

    // Create: the name is required (checked before any call), the description optional.
    await page.getByRole('button', { name: 'Create Album', exact: true }).click();
    const create = page.getByRole('dialog', { name: 'Create Album' });
    await create.getByRole('button', { name: 'Create Album', exact: true }).click();
    await create.getByText('Album name is required', { exact: true }).waitFor();
    await create.getByLabel('Album Name', { exact: true }).fill('  Oktoberfest  ');
    await create.getByLabel('Description (optional)', { exact: true }).fill('Munich with the crew');
    const posted = page.waitForRequest(isPath('/api/albums', 'POST'));
    await create.getByRole('button', { name: 'Create Album', exact: true }).click();
    expect((await posted).postDataJSON()).toEqual({ name: 'Oktoberfest', description: 'Munich with the crew' });
    await create.waitFor({ state: 'detached' });

    const card = albumCard(page, 'Oktoberfest');
    await card.getByText('0 photos', { exact: true }).waitFor();
    await card.getByRole('link', { name: 'Oktoberfest', exact: true }).click();
    await page.waitForURL(/\/photos\?album=[0-9a-f-]{36}$/);
    const albumId = new URL(page.url()).searchParams.get('album');
    await page.getByRole('heading', { level: 1, name: 'Oktoberfest' }).waitFor();
    await page.getByRole('heading', { name: 'No photos yet', exact: true }).waitFor();

    // Add two real images with a description.
    await page.getByRole('button', { name: 'Add Photos', exact: true }).click();
    const add = page.getByRole('dialog', { name: 'Add Photos' });
    await add
      .getByLabel('Select Photos', { exact: true })
      .setInputFiles([await image('pretzel-stand.png', '#d97706'), await image('beer-tent.jpg', '#1d4ed8', 80, 60)]);
    const previews = add.getByRole('list', { name: 'Selected photos', exact: true }).getByRole('img');
    await expect.poll(() => previews.count()).toBe(2);
    await expect.poll(async () => Promise.all((await previews.all()).map(loaded))).toEqual([true, true]);
    await add.getByLabel('Description (optional)', { exact: true }).fill('Day one');
    const uploadRequest = page.waitForRequest(isPath(`/api/albums/${albumId}/photos`, 'POST'));
    const uploadResponse = page.waitForResponse((response) => isPath(`/api/albums/${albumId}/photos`, 'POST')(response.request()));
    await add.getByRole('button', { name: 'Upload', exact: true }).click();
    const sent = await uploadRequest;
    expect(sent.headers()['authorization']).toBe(`Bearer ${alice.token}`);
    expect(sent.headers()['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const answer = await uploadResponse;
    expect(answer.status()).toBe(201);
    // (Chromium does not expose a file upload's body to request events; the answer shows what the server parsed.)
    const created = (await answer.json()) as Photo[];
    expect(created.map((photo) => [photo.originalName, photo.description, photo.status])).toEqual([
      ['pretzel-stand.png', 'Day one', 'processing'],
      ['beer-tent.jpg', 'Day one', 'processing'],
    ]);
    await add.waitFor({ state: 'detached' });

    // The worker makes the thumbnails; the grid polls until both show.
    const thumbnails = photoGrid(page).getByRole('img');
    await expect.poll(async () => Promise.all((await thumbnails.all()).map(loaded)), { timeout: CONDITION_BOUND_MS }).toEqual([true, true]);
    await expect.poll(() => page.getByText('Processing…').count()).toBe(0);

    // A reload keeps the album open.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Oktoberfest' }).waitFor();
    await expect.poll(() => photoGrid(page).getByRole('listitem').count()).toBe(2);

    // Search by a file name: the query goes to the server as ?q=.
    const searched = page.waitForRequest((request) => new URL(request.url()).searchParams.get('q') === 'pretzel');
    await page.getByRole('searchbox', { name: 'Search photos' }).fill('pretzel');
    expect(new URL((await searched).url()).pathname).toBe(`/api/albums/${albumId}/photos`);
    await expect.poll(() => photoGrid(page).getByRole('listitem').allInnerTexts()).toEqual(['pretzel-stand.png']);
    await page.getByRole('searchbox', { name: 'Search photos' }).fill('no such photo');
    await page.getByRole('heading', { name: 'No matching photos', exact: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Search photos' }).fill('');
    await expect.poll(() => photoGrid(page).getByRole('listitem').count()).toBe(2);

    // Open one large.
    await photoTile(page, 'pretzel-stand.png').getByRole('button', { name: 'pretzel-stand.png', exact: true }).click();
    const viewer = page.getByRole('dialog', { name: 'pretzel-stand.png' });
    await viewer.getByText('Day one', { exact: true }).waitFor();
    await expect.poll(() => loaded(viewer.getByRole('img', { name: 'pretzel-stand.png' }))).toBe(true);
    expect(await viewer.getByRole('img').getAttribute('src')).toMatch(/^\/api\/media\/files\//);
    await viewer.getByText(/^64 × 48 · \d+ KB · /).waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    // Delete a photo: cancel first, then confirm.
    await photoTile(page, 'beer-tent.jpg').getByRole('button', { name: 'Delete photo beer-tent.jpg', exact: true }).click();
    const confirmPhoto = page.getByRole('dialog', { name: 'Delete photo?' });
    await confirmPhoto.getByRole('button', { name: 'Cancel', exact: true }).click();
    await confirmPhoto.waitFor({ state: 'detached' });
    await photoTile(page, 'beer-tent.jpg').getByRole('button', { name: 'Delete photo beer-tent.jpg', exact: true }).click();
    await confirmPhoto.getByRole('button', { name: 'Delete', exact: true }).click();
    await photoTile(page, 'beer-tent.jpg').waitFor({ state: 'detached' });
    await page.getByText('Munich with the crew · 1 photo', { exact: true }).waitFor();

    // Back to the grid: the count and the cover follow.
    await page.getByRole('link', { name: 'Back to Albums', exact: true }).click();
    await page.waitForURL(/\/photos$/);
    await card.getByText('1 photo', { exact: true }).waitFor();
    await expect.poll(() => loaded(card.locator('img'))).toBe(true);

    // Delete the album.
    await card.getByRole('button', { name: 'Delete album Oktoberfest', exact: true }).click();
    const confirmAlbum = page.getByRole('dialog', { name: 'Delete album?' });
    await confirmAlbum.getByText('“Oktoberfest” and its 1 photo will be deleted. This cannot be undone.').waitFor();
    await confirmAlbum.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('heading', { name: 'No albums yet', exact: true }).waitFor();
    expect(await expectApi(stack.baseUrl, alice.token, 'GET', '/api/albums')).toEqual([]);
  });

  it(`keeps the last ${PHOTO_PICKER_MAX} images in the picker and says a refused upload at the field`, async () => {
    const bob = await registerUser(stack.baseUrl, 'bob');
    const album = await createAlbumViaApi(bob, 'Pub crawl');
    const page = await stack.openAs(bob, `/photos?album=${album.id}`);
    await page.getByRole('heading', { level: 1, name: 'Pub crawl' }).waitFor();
    await page.getByRole('button', { name: 'Add Photos', exact: true }).click();
    const add = page.getByRole('dialog', { name: 'Add Photos' });
    const picker = add.getByLabel('Select Photos', { exact: true });
    const previews = add.getByRole('list', { name: 'Selected photos', exact: true });

    const pint = await image('pint.png', '#f59e0b', 16, 16);
    await picker.setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') },
      ...Array.from({ length: PHOTO_PICKER_MAX - 2 }, (_, i) => ({ ...pint, name: `first-${i + 1}.png` })),
    ]);
    await add.getByText('notes.txt is not an image.', { exact: true }).waitFor();
    await add.getByText(`8 of ${PHOTO_PICKER_MAX} selected`, { exact: true }).waitFor();
    await picker.setInputFiles(Array.from({ length: 4 }, (_, i) => ({ ...pint, name: `second-${i + 1}.png` })));
    await add.getByText(`Only the last ${PHOTO_PICKER_MAX} images are kept: 2 earlier images were dropped.`, { exact: true }).waitFor();
    const kept = [...Array.from({ length: 6 }, (_, i) => `first-${i + 3}.png`), ...Array.from({ length: 4 }, (_, i) => `second-${i + 1}.png`)];
    await expect.poll(() => previews.getByRole('img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt')))).toEqual(kept);

    // One removed by hand: 9 go out.
    await previews.getByRole('button', { name: 'Remove first-3.png', exact: true }).click();
    await add.getByText(`9 of ${PHOTO_PICKER_MAX} selected`, { exact: true }).waitFor();

    // The server refuses: its message; then a bare failure: the fallback. The selection stays for another try.
    const uploads: number[] = [];
    const keys: string[] = [];
    await page.route(`**/api/albums/${album.id}/photos`, async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      const form = route.request().postDataBuffer()?.toString('latin1') ?? '';
      uploads.push(form.match(/name="photos"/g)?.length ?? 0);
      keys.push((await route.request().headerValue('idempotency-key')) ?? '');
      if (uploads.length === 1) {
        await route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'Not an image: first-4.png' }) });
      } else {
        await route.fulfill({ status: 502, body: '' });
      }
    });
    // At the field, not in a toast over the button (issue 40, item 13).
    await add.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectFieldError(add, 'Select Photos', 'Not an image: first-4.png');
    expect(await page.getByText('Not an image: first-4.png').count()).toBe(1); // the field's words, no toast beside them
    await add.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectFieldError(add, 'Select Photos', 'Failed to upload photos. Please try again.');
    // A 502 is tried again three times (issue 38), with the same Idempotency-Key: one action, one key; a new click, a new key.
    expect(uploads).toEqual([9, 9, 9, 9, 9]);
    expect(keys.every((key) => /^[0-9a-f]{32}$/.test(key))).toBe(true);
    expect(new Set(keys.slice(1)).size).toBe(1);
    expect(keys[1]).not.toBe(keys[0]);
    await expect.poll(() => previews.getByRole('img').count()).toBe(9);
  });

  it('refuses a text file renamed .png at the field of every picker: no preview, nothing to upload (issue 40)', async () => {
    const ivy = await registerUser(stack.baseUrl, 'ivy');
    const album = await createAlbumViaApi(ivy, 'Bad files');
    const fake = { name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('just some text, renamed to .png') };
    const uploads: string[] = [];
    const page = await stack.openAs(ivy, `/photos?album=${album.id}`);
    page.on('request', (request) => {
      if (request.method() !== 'GET') uploads.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });

    // The album's picker: the reason at the field, no preview, Upload off; a real image clears it.
    await page.getByRole('button', { name: 'Add Photos', exact: true }).click();
    const add = page.getByRole('dialog', { name: 'Add Photos' });
    const picker = add.getByLabel('Select Photos', { exact: true });
    await picker.setInputFiles(fake);
    await expectFieldError(add, 'Select Photos', NOT_A_SUPPORTED_IMAGE);
    expect(await add.getByRole('list', { name: 'Selected photos', exact: true }).count()).toBe(0);
    expect(await add.getByRole('button', { name: 'Upload', exact: true }).isDisabled()).toBe(true);
    await picker.setInputFiles([fake, await image('real.png', '#b45309')]);
    await expectFieldError(add, 'Select Photos', `${NOT_A_SUPPORTED_IMAGE}: fake.png`);
    await add.getByRole('list', { name: 'Selected photos', exact: true }).getByRole('img', { name: 'real.png', exact: true }).waitFor();
    expect(await add.getByRole('img', { name: 'fake.png' }).count()).toBe(0);
    await add.getByRole('button', { name: 'Remove real.png', exact: true }).click();
    expect(await picker.getAttribute('aria-invalid')).toBeNull();
    await add.getByRole('button', { name: 'Cancel', exact: true }).click();

    // The profile picture's: the same words at the field, the avatar kept, Upload off.
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Change picture', exact: true }).click();
    const picture = page.getByRole('dialog', { name: 'Change profile picture' });
    await picture.getByLabel('Select Photo', { exact: true }).setInputFiles(fake);
    await expectFieldError(picture, 'Select Photo', NOT_A_SUPPORTED_IMAGE);
    expect(await picture.getByRole('img', { name: 'Preview of the selected photo' }).count()).toBe(0);
    expect(await picture.getByRole('button', { name: 'Upload', exact: true }).isDisabled()).toBe(true);
    await picture.getByRole('button', { name: 'Cancel', exact: true }).click();

    // The session form's: no preview, the count stays at 0.
    await page.goto('/');
    await page.getByRole('button', { name: 'Log Session', exact: true }).first().click();
    const log = page.getByRole('dialog', { name: 'Log Beer Session', exact: true });
    await log.getByLabel('Select Photo', { exact: true }).setInputFiles(fake);
    await expectFieldError(log, 'Select Photo', NOT_A_SUPPORTED_IMAGE);
    expect(await log.getByRole('list', { name: 'Session photos', exact: true }).count()).toBe(0);
    await log.getByText(`0 of ${SESSION_PHOTOS_MAX}`, { exact: true }).waitFor();
    expect(uploads).toEqual([]);
  });

  it('shows processing and failed photos, polling only while one is processing', async () => {
    const carol = await registerUser(stack.baseUrl, 'carol');
    const album = await createAlbumViaApi(carol, 'Brewery tour');
    const photo = (status: Photo['status'], failureReason: string | null = null): Photo => ({
      id: '00000000-0000-4000-8000-000000000001',
      albumId: album.id,
      url: null,
      thumbnailUrl: null,
      originalName: 'mash-tun.heic',
      description: null,
      status,
      failureReason,
      width: null,
      height: null,
      fileSize: 1234,
      createdAt: new Date().toISOString(),
    });
    const { page } = await stack.open('/');
    let reads = 0;
    await page.route(`**/api/albums/${album.id}/photos`, (route) => {
      reads += 1;
      const answer = reads < 3 ? photo('processing') : photo('failed', 'The image could not be decoded.');
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify([answer]) });
    });
    await signInWithToken(page, carol.token, `/photos?album=${album.id}`);
    const tile = photoTile(page, 'mash-tun.heic');
    await tile.getByText('Processing…', { exact: true }).waitFor();
    await tile.getByText('Could not process', { exact: true }).waitFor({ timeout: CONDITION_BOUND_MS });
    await tile.getByText('The image could not be decoded.', { exact: true }).waitFor();
    expect(await tile.getByRole('button', { name: 'mash-tun.heic', exact: true }).count()).toBe(0);
    const settled = reads;
    await page.waitForTimeout(2_000);
    expect(reads).toBe(settled);
  });

  it('toasts failed album and photo writes with the spec texts', async () => {
    const dave = await registerUser(stack.baseUrl, 'dave');
    await createAlbumViaApi(dave, 'Beer garden');
    const page = await stack.openAs(dave, '/photos');
    const card = albumCard(page, 'Beer garden');
    await card.waitFor();

    await page.route('**/api/albums', (route) => (route.request().method() === 'POST' ? route.fulfill({ status: 500, body: '' }) : route.fallback()));
    await page.getByRole('button', { name: 'Create Album', exact: true }).click();
    const create = page.getByRole('dialog', { name: 'Create Album' });
    await create.getByLabel('Album Name', { exact: true }).fill('Cellar');
    await create.getByRole('button', { name: 'Create Album', exact: true }).click();
    await expectToast(page, 'Error', 'Failed to create album. Please try again.');
    expect(await create.getByLabel('Album Name', { exact: true }).inputValue()).toBe('Cellar');
    await create.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dismissToast(page);

    await page.route('**/api/albums/*', (route) => (route.request().method() === 'DELETE' ? route.fulfill({ status: 500, body: '' }) : route.fallback()));
    await card.getByRole('button', { name: 'Delete album Beer garden', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete album?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectToast(page, 'Error', 'Failed to delete album. Please try again.');
    await confirm.getByRole('button', { name: 'Delete', exact: true }).waitFor();
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
    await card.waitFor();
    await dismissToast(page);

    const [album] = (await expectApi(stack.baseUrl, dave.token, 'GET', '/api/albums')) as [Album];
    await page.route(`**/api/albums/${album.id}/photos`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify([
          {
            id: '00000000-0000-4000-8000-000000000002',
            albumId: album.id,
            url: null,
            thumbnailUrl: null,
            originalName: 'toast.png',
            description: null,
            status: 'failed',
            failureReason: 'Too small',
            width: null,
            height: null,
            fileSize: 10,
            createdAt: new Date().toISOString(),
          } satisfies Photo,
        ]),
      }),
    );
    await page.route('**/api/photos/*', (route) => route.fulfill({ status: 500, body: '' }));
    await card.getByRole('link', { name: 'Beer garden', exact: true }).click();
    await photoTile(page, 'toast.png').getByRole('button', { name: 'Delete photo toast.png', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete photo?' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await expectToast(page, 'Error', 'Failed to delete photo. Please try again.');
  });

  it('keeps the photos of your sessions in a built-in "Session photos" album, each leading to its session (issue 40)', async () => {
    const dora = await registerUser(stack.baseUrl, 'dora');
    const older = await logSessionViaApi(stack.baseUrl, dora, { title: `Garden pints ${dora.username}` }, await image('garden.png', '#15803d'));
    await logSessionViaApi(stack.baseUrl, dora, { title: `No camera ${dora.username}` });
    const newer = await logSessionViaApi(stack.baseUrl, dora, { title: `Taproom ${dora.username}` }, await image('taproom.jpg', '#b45309'));

    const page = await stack.openAs(dora, '/photos');
    // Before issue 40: 'No albums yet', and nowhere on /photos a photo of her sessions.
    const builtIn = albumCard(page, 'Session photos');
    await builtIn.getByText('2 photos', { exact: true }).waitFor();
    await expect.poll(() => loaded(builtIn.locator('img'))).toBe(true);
    // Built in: nothing to delete here (a photo goes with its session).
    expect(await builtIn.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    await builtIn.getByRole('link', { name: 'Session photos', exact: true }).click();
    await page.waitForURL(/\/photos\?album=sessions$/);
    await page.getByRole('heading', { level: 1, name: 'Session photos' }).waitFor();

    // Newest session first; each photo is named after its session and links to it.
    const tiles = photoGrid(page).getByRole('listitem');
    await expect.poll(() => tiles.count()).toBe(2);
    await expect.poll(async () => Promise.all((await photoGrid(page).getByRole('img').all()).map(loaded))).toEqual([true, true]);
    expect(await tiles.evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')))).toEqual([newer.title, older.title]);
    const toSession = photoTile(page, older.title).getByRole('link', { name: older.title, exact: true });
    expect(await toSession.getAttribute('href')).toBe(`/sessions/${older.id}`);

    // Opened large, with the session it belongs to.
    await photoTile(page, newer.title).getByRole('button', { name: newer.title, exact: true }).click();
    const viewer = page.getByRole('dialog', { name: newer.title });
    await expect.poll(() => loaded(viewer.getByRole('img', { name: newer.title }))).toBe(true);
    await viewer.getByRole('link', { name: 'Open the session', exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    await toSession.click();
    await page.waitForURL(new RegExp(`/sessions/${older.id}$`));

    // On a phone the album fits the width.
    const phone = await stack.openAs(dora, '/photos?album=sessions', { narrow: true });
    await expect.poll(async () => Promise.all((await photoGrid(phone).getByRole('img').all()).map(loaded))).toEqual([true, true]);
    await expectNoSidewaysScroll(phone, 'Session photos on a phone');
  });
});
