import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPORT_READY_SUBJECT, type Album, type DataExport } from '@hoptrack/proto';
import { caughtMail, type CaughtMail } from '@hoptrack/testing/mail';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { axeProblems } from './a11y';
import { testImage, uploadPhotosViaApi } from './images';
import { expectNoSidewaysScroll, expectNothingUnderBottomBar } from './layout';
import { dismissToast, expectApi, expectToast, logSessionViaApi, registerUser, useE2eStack } from './support';

/**
 * Download my data (issue 24 items 3 and 6) in the browser, against the real
 * stack: a person with a session photo and an album photo asks for their
 * data on /account; the list shows the export being prepared and, without a
 * reload (it is read again while one is pending), ready; Download saves a zip
 * that holds every service's part and both photos; the ready mail arrives;
 * the screen passes axe and fits a phone with an export listed.
 */
const stack = useE2eStack();
const mailUrl = inject('e2eMailUrl');

/** From the request to the ready export: every service writes its part, media builds the zip. A bound, not a wait. */
const EXPORT_READY_BOUND_MS = 90_000;

/** The parts the zip must hold: one JSON file per exporting service. */
const PARTS = [
  'auth.json',
  'social-graph.json',
  'sessions.json',
  'messaging.json',
  'media.json',
  'places.json',
  'notifications.json',
  'challenges.json',
] as const;

/** Opens the zip with Python's zipfile: every member's CRC checked, the names listed. */
const ZIP_NAMES = 'import zipfile,sys,json; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(json.dumps(z.namelist()))';

const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const exportsList = (page: Page): Locator => section(page, 'Download my data').getByRole('list', { name: 'Your exports', exact: true });

let downloads: string | undefined;
afterAll(async () => {
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

async function openAccount(page: Page): Promise<void> {
  await h1(page, 'Account Settings').waitFor();
  await section(page, 'Download my data').waitFor();
}

/** Waits for the mail with `subject` that `to` received. */
async function mailTo(to: string, subject: string): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(async () => {
      found = (await caughtMail(mailUrl, to)).find((mail) => mail.subject === subject);
      return found !== undefined;
    })
    .toBe(true);
  if (!found) throw new Error(`no mail "${subject}" to ${to}`);
  return found;
}

describe('download my data', () => {
  it('prepares the export while the page watches, downloads a zip with every part and both photos, and mails the person', async () => {
    const user = await registerUser(stack.baseUrl, 'export');
    const session = await logSessionViaApi(
      stack.baseUrl,
      user,
      {
        title: 'Export night',
        description: 'A session with a photo, for the export.',
        beerCount: '2',
        duration: '90',
        avgAbv: '5.0',
        location: 'Home',
        beerTypes: JSON.stringify(['IPA']),
        musicTrack: '',
      },
      await testImage('pint.jpg', { background: '#b45309', width: 320, height: 240, motif: 'pint' }),
    );
    const album = (await expectApi(stack.baseUrl, user.token, 'POST', '/api/albums', { name: 'Export album', description: 'One photo' }, 201)) as Album;
    const [photo] = await uploadPhotosViaApi(stack.baseUrl, user, album, [await testImage('taproom.png', { background: '#0f766e', width: 200, height: 150, motif: 'disc' })]);
    expect(photo).toBeDefined();

    const page = await stack.openAs(user, '/account');
    await openAccount(page);
    const area = section(page, 'Download my data');
    const requestButton = area.getByRole('button', { name: 'Request my data', exact: true });
    // Nothing asked yet: no list, the button ready.
    expect(await exportsList(page).count()).toBe(0);
    expect(await requestButton.isEnabled()).toBe(true);
    await area.getByText('Your albums, with the original photos', { exact: true }).waitFor();

    await requestButton.click();
    await expectToast(page, 'Export requested');
    await dismissToast(page);
    const list = exportsList(page);
    // The button stays disabled for as long as one is being prepared (read in one go: the list may turn ready any moment).
    await list.getByText('Preparing…', { exact: true }).waitFor();
    const seen = await area.evaluate((element) => ({
      preparing: element.textContent?.includes('Preparing…') ?? false,
      disabled: element.querySelector('button')?.disabled ?? false,
    }));
    if (seen.preparing) expect(seen.disabled).toBe(true);
    expect(await list.getByRole('listitem').count()).toBe(1);

    // Ready without a reload: the list is read again while the export is pending.
    const ready = list.getByText(/^Ready — download until .+ · \d+(\.\d)? [KM]B$/);
    await ready.waitFor({ timeout: EXPORT_READY_BOUND_MS });
    expect(await list.getByText('Preparing…', { exact: true }).count()).toBe(0);
    // One a day (issue 39): the button waits, and the page says until when, before anyone clicks.
    await area.getByText(/^You can request a new copy once a day: from .+\.$/).waitFor();
    expect(await requestButton.isDisabled()).toBe(true);
    const [listed] = (await expectApi(stack.baseUrl, user.token, 'GET', '/api/me/exports')) as DataExport[];
    expect(listed?.status).toBe('ready');

    // Axe with an export listed.
    expect(await axeProblems(page, '/account with an export')).toEqual([]);

    // Download: the page's bearer call, a Blob, saved as hoptrack-export.zip.
    const download = list.getByRole('button', { name: 'Download', exact: true });
    const [saved] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(saved.suggestedFilename()).toBe('hoptrack-export.zip');
    downloads = await mkdtemp(join(tmpdir(), 'hoptrack-export-'));
    const path = join(downloads, 'hoptrack-export.zip');
    await saved.saveAs(path);
    expect((await stat(path)).size).toBe(listed?.size);

    const names = JSON.parse(execFileSync('python3', ['-c', ZIP_NAMES, path], { encoding: 'utf8' })) as string[];
    for (const part of PARTS) expect(names, part).toContain(part);
    // The album photo's original under photos/<album>/, the session photo under session-photos/.
    expect(names, 'the album photo').toContainEqual(expect.stringMatching(new RegExp(`^photos/Export album/${photo?.id ?? 'none'}\\.[a-z]+$`)));
    expect(names, 'the session photo').toContain(`session-photos/${session.id}-1.webp`);

    // The ready mail, pointing at the account page.
    const mail = await mailTo(user.email, EXPORT_READY_SUBJECT);
    expect(mail.text).toMatch(/https?:\/\/\S+\/account\b/);

    // An export that expired meanwhile (410, the server's message) is the page's usual error toast.
    await page.route(
      (url) => url.pathname === `/api/me/export/${listed?.id}`,
      (route) =>
        route.fulfill({
          status: 410,
          contentType: 'application/json',
          body: JSON.stringify({ statusCode: 410, error: 'Gone', message: 'This export has expired. Request a new one.' }),
        }),
      { times: 1 },
    );
    await download.click();
    await expectToast(page, 'Error', 'This export has expired. Request a new one.');

    // On a phone, with the export listed: nothing sideways, nothing under the bottom bar, axe.
    const phone = await stack.openAs(user, '/account', { narrow: true });
    await openAccount(phone);
    await exportsList(phone).getByText(/^Ready — download until/).waitFor();
    await expectNoSidewaysScroll(phone, '/account with an export');
    await expectNothingUnderBottomBar(phone, '/account with an export');
    expect(await axeProblems(phone, '/account narrow with an export')).toEqual([]);
  });
});
