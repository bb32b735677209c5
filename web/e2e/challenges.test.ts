import { CHALLENGE_KINDS, CHALLENGE_MESSAGES, type Challenge } from '@hoptrack/proto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeProblems } from './a11y';
import { testImage, uploadPhotosViaApi } from './images';
import {
  callApi,
  expectApi,
  expectSignedInFeed,
  expectToast,
  logSessionViaApi,
  makeFriends,
  notifications,
  registerUser,
  signInWithToken,
  useE2eStack,
  waitForSocialUser,
  type RegisteredUser,
} from './support';

/**
 * Daily challenges in the browser (issue 23): Alice joins 'Try 3 new styles'
 * on /challenges, logs three styles she never logged (the first through the
 * Log dialog), watches her bar go from 1/3 to 3/3 and gets the completion
 * toast; she invites Bob, a friend, who accepts from his invitations and
 * lands on the challenge's page with Alice's progress. The world is made
 * through the API (the stack runs with CHALLENGES_PER_DAY=6, so every kind
 * is out every day); every check is made on the screen.
 */
const stack = useE2eStack();

const NEW_STYLES = CHALLENGE_KINDS.new_styles.title;
/** A second challenge, joined by Alice's friends: its friends' count tells when the challenges service knows a friendship. */
const PROBE = CHALLENGE_KINDS.new_bar.title;
/**
 * The browser runs on this machine, in its zone: the API calls made here ask
 * for the same "today" as the screens (which send the browser's zone).
 */
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

const todayList = (page: Page) => page.getByRole('list', { name: "Today's challenges", exact: true });
const card = (page: Page, title: string) => todayList(page).getByRole('article', { name: title, exact: true });
const progressBar = (scope: Page | Locator, name: string) => scope.getByRole('progressbar', { name, exact: true });
const listItem = (scope: Page | Locator, list: string, name: string) =>
  scope.getByRole('list', { name: list, exact: true }).getByRole('listitem', { name, exact: true });

/** Signed in as `user` at `path`; colours are measured after transitions end (axe), not halfway through a dialog's fade-in. */
async function openAs(user: RegisteredUser, path: string): Promise<Page> {
  const page = await stack.openAs(user, path);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  return page;
}

/** Today's challenges as `user` sees them, by title. */
async function todayOf(user: RegisteredUser): Promise<Map<string, Challenge>> {
  const list = (await expectApi(stack.baseUrl, user.token, 'GET', `/api/challenges?timeZone=${encodeURIComponent(ZONE)}`)) as Challenge[];
  return new Map(list.map((one) => [one.title, one]));
}

async function challengeId(user: RegisteredUser, title: string): Promise<string> {
  const found = (await todayOf(user)).get(title);
  if (!found) throw new Error(`no challenge "${title}" today`);
  return found.id;
}

/** Waits until the challenges service counts `count` of `user`'s friends in the probe challenge (it learns friendships by events). */
async function expectProbeFriends(user: RegisteredUser, count: number): Promise<void> {
  await expect.poll(async () => (await todayOf(user)).get(PROBE)?.friendCount).toBe(count);
}

/** The bar says `done` of `target`, to screen readers and in its '1/3' count. */
async function expectProgress(scope: Page | Locator, name: string, done: number, target: number): Promise<void> {
  const bar = progressBar(scope, name);
  await expect.poll(() => bar.getAttribute('aria-valuenow')).toBe(String(done));
  expect(await bar.getAttribute('aria-valuetext')).toBe(`${done} of ${target}`);
  await scope.getByText(`${done}/${target}`, { exact: true }).first().waitFor();
}

/**
 * Reloads until the card's bar reaches `done`: progress is counted by the
 * challenges service from the session's event, a moment after the write,
 * and nothing tells an open page before completion.
 */
async function reloadUntilProgress(page: Page, title: string, done: number): Promise<void> {
  const bar = progressBar(card(page, title), `Progress on ${title}`);
  await expect
    .poll(
      async () => {
        await page.reload();
        await bar.waitFor();
        return bar.getAttribute('aria-valuenow');
      },
      { interval: 500 },
    )
    .toBe(String(done));
}

describe('daily challenges', () => {
  it('Alice joins, logs three new styles (1/3 → 3/3, a toast), invites Bob, who accepts and sees her progress', async () => {
    const [alice, bob, carol, dave] = await Promise.all([
      registerUser(stack.baseUrl, 'alice'),
      registerUser(stack.baseUrl, 'bob'),
      registerUser(stack.baseUrl, 'carol'),
      registerUser(stack.baseUrl, 'dave'),
    ]);
    await makeFriends(stack.baseUrl, alice, bob);
    await makeFriends(stack.baseUrl, dave, alice);
    await waitForSocialUser(stack.baseUrl, alice, carol);
    const newStylesId = await challengeId(alice, NEW_STYLES);
    const target = CHALLENGE_KINDS.new_styles.targetValue;
    // Bob and Dave in the probe: once Alice sees both there, the challenges service knows both friendships.
    const probeId = await challengeId(bob, PROBE);
    for (const friend of [bob, dave]) await expectApi(stack.baseUrl, friend.token, 'POST', `/api/challenges/${probeId}/join`, { timeZone: ZONE });
    await expectProbeFriends(alice, 2);

    // Bob waits on /challenges: the invitation will come to him live.
    const b = await openAs(bob, '/challenges');
    await card(b, NEW_STYLES).waitFor();
    await b.getByText('No invitations yet. Join a challenge, then invite your friends to it.', { exact: true }).waitFor();

    // Alice reaches /challenges from the header; the card offers Join, no bar yet.
    const a = await openAs(alice, '/');
    await expectSignedInFeed(a);
    await a.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Challenges', exact: true }).click();
    await a.getByRole('heading', { level: 1, name: 'Challenges', exact: true }).waitFor();
    const mine = card(a, NEW_STYLES);
    await mine.getByText(CHALLENGE_KINDS.new_styles.description, { exact: true }).waitFor();
    expect(await progressBar(mine, `Progress on ${NEW_STYLES}`).count()).toBe(0);
    await mine.getByText('No friends taking part yet', { exact: true }).waitFor();
    await a.getByText('Challenges you complete will show up here.', { exact: true }).waitFor();

    // Joining shows the bar at 0/3, Joined and Invite; all of it survives a reload.
    await mine.getByRole('button', { name: 'Join', exact: true }).click();
    await expectProgress(mine, `Progress on ${NEW_STYLES}`, 0, target);
    await mine.getByText('Joined', { exact: true }).waitFor();
    await a.reload();
    await mine.getByRole('button', { name: 'Invite', exact: true }).waitFor();
    await mine.getByText('Joined', { exact: true }).waitFor();
    expect(await mine.getByRole('button', { name: 'Join', exact: true }).count()).toBe(0);
    await expectProgress(mine, `Progress on ${NEW_STYLES}`, 0, target);

    // The first new style through the Log dialog on the feed.
    await a.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Feed', exact: true }).click();
    await a.getByRole('button', { name: 'Log Session', exact: true }).click();
    const log = a.getByRole('dialog', { name: 'Log Beer Session', exact: true });
    await log.getByLabel('Title', { exact: true }).fill(`First IPA ${alice.username}`);
    await log.getByLabel('Beers', { exact: true }).fill('1');
    await log.getByLabel('Duration (minutes)', { exact: true }).fill('30');
    await log.getByRole('group', { name: 'Beer Types', exact: true }).getByRole('button', { name: 'IPA', exact: true }).click();
    await log.getByRole('button', { name: 'Log Session', exact: true }).click();
    await expectToast(a, 'Beer session logged successfully!');
    await log.waitFor({ state: 'detached' });
    await a.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Challenges', exact: true }).click();
    await reloadUntilProgress(a, NEW_STYLES, 1);
    await expectProgress(mine, `Progress on ${NEW_STYLES}`, 1, target);

    // Two more styles through the API while she watches: the completion comes by the live stream, with no reload.
    for (const style of ['Stout', 'Porter']) {
      await logSessionViaApi(stack.baseUrl, alice, { title: `${style} ${alice.username}`, beerCount: '1', duration: '30', beerTypes: JSON.stringify([style]) });
    }
    await expectToast(a, `Challenge completed: ${NEW_STYLES}`);
    await expectProgress(mine, `Progress on ${NEW_STYLES}`, target, target);
    await mine.getByText('Completed', { exact: true }).waitFor();
    expect(await mine.getAttribute('data-completed')).toBe('true');
    await a.getByRole('list', { name: 'Completed challenges', exact: true }).getByText(NEW_STYLES, { exact: true }).waitFor();
    expect(await axeProblems(a, '/challenges with a completed card')).toEqual([]);

    // She invites: her friends are offered, Carol (not a friend) is not.
    await mine.getByRole('button', { name: 'Invite', exact: true }).click();
    const dialog = a.getByRole('dialog', { name: 'Invite friends', exact: true });
    const bobRow = listItem(dialog, 'Friends to invite', bob.displayName);
    const daveRow = listItem(dialog, 'Friends to invite', dave.displayName);
    await bobRow.waitFor();
    await daveRow.waitFor();
    expect(await dialog.getByRole('list', { name: 'Friends to invite', exact: true }).getByRole('listitem').count()).toBe(2);
    expect(await dialog.getByText(carol.displayName).count()).toBe(0);
    expect(await axeProblems(a, 'the invite dialog')).toEqual([]);
    await bobRow.getByRole('button', { name: `Invite ${bob.displayName}`, exact: true }).click();
    await expectToast(a, 'Invitation sent!', `${bob.displayName} is invited to “${NEW_STYLES}”.`);
    await bobRow.getByRole('button', { name: 'Invited', exact: true }).waitFor();
    // Bob, on his page all along: the toast, then the invitation in his list, live.
    await expectToast(b, `${alice.displayName} invited you to “${NEW_STYLES}”`);
    const invitation = listItem(b, 'Received invitations', alice.displayName);
    await invitation.getByText(`Invited you to ${NEW_STYLES}`, { exact: false }).waitFor();

    // Dave unfriends her while the dialog is open: it drops him live (issue 40, item 8: friendships
    // push to both sides), and the server refuses an invitation to him anyway.
    await expectApi(stack.baseUrl, dave.token, 'DELETE', `/api/friends/${alice.id}`);
    await expectProbeFriends(alice, 1);
    await daveRow.waitFor({ state: 'detached' });
    const refusedDave = await callApi(stack.baseUrl, alice.token, 'POST', `/api/challenges/${newStylesId}/invitations`, { friendId: dave.id });
    expect(refusedDave.status).toBe(403);
    expect(refusedDave.body).toMatchObject({ message: CHALLENGE_MESSAGES.friendsOnly });
    await a.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Carol, never a friend, is refused by the server too (the screens never offer her).
    const refused = await callApi(stack.baseUrl, alice.token, 'POST', `/api/challenges/${newStylesId}/invitations`, { friendId: carol.id });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: CHALLENGE_MESSAGES.friendsOnly });

    // Her sent invitation waits.
    await listItem(a, 'Sent invitations', bob.displayName).getByRole('button', { name: 'Pending', exact: true }).waitFor();

    // Bob accepts from his list.
    await invitation.getByRole('button', { name: 'Accept', exact: true }).click();

    // Accepting opens the challenge's page: he is in, and Alice is there at 3/3.
    await b.waitForURL(`${stack.baseUrl}/challenges/${newStylesId}`);
    await expectToast(b, 'Invitation accepted!', `You joined “${NEW_STYLES}”.`);
    await b.getByRole('heading', { level: 1, name: NEW_STYLES, exact: true }).waitFor();
    const bobsCard = b.getByRole('article', { name: NEW_STYLES, exact: true });
    await bobsCard.getByText('Joined', { exact: true }).waitFor();
    await expectProgress(bobsCard, `Progress on ${NEW_STYLES}`, 0, target);
    const aliceThere = listItem(b, 'Friends taking part', alice.displayName);
    await expectProgress(aliceThere, `Progress of ${alice.displayName}`, target, target);
    await aliceThere.getByText('Completed', { exact: true }).waitFor();
    expect(await axeProblems(b, '/challenges/:id with a friend')).toEqual([]);

    // Alice, on her page all along, sees it accepted: the answer comes to her live, no reload.
    await listItem(a, 'Sent invitations', bob.displayName).getByRole('button', { name: 'Accepted', exact: true }).waitFor();
  });

  it("toasts 'Failed to send invitation' with the server's reason when the friend ended the friendship before the dialog heard of it", async () => {
    const [erin, finn] = await Promise.all([registerUser(stack.baseUrl, 'erin'), registerUser(stack.baseUrl, 'finn')]);
    await makeFriends(stack.baseUrl, erin, finn);
    await expectApi(stack.baseUrl, finn.token, 'POST', `/api/challenges/${await challengeId(finn, PROBE)}/join`, { timeZone: ZONE });
    await expectProbeFriends(erin, 1);
    await expectApi(stack.baseUrl, erin.token, 'POST', `/api/challenges/${await challengeId(erin, NEW_STYLES)}/join`, { timeZone: ZONE });

    // Her page hears nothing live (a dropped stream it has not noticed yet): the friendship's end does not reach the open dialog.
    const { page } = await stack.open('/');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.route('**/api/messages/events', (route) => route.abort());
    await signInWithToken(page, erin.token, '/challenges');
    await card(page, NEW_STYLES).getByRole('button', { name: 'Invite', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite friends', exact: true });
    const finnRow = listItem(dialog, 'Friends to invite', finn.displayName);
    await finnRow.waitFor();

    // Finn unfriends her meanwhile; once the challenges service knows, her Invite is refused there (403), and the toast says why.
    await expectApi(stack.baseUrl, finn.token, 'DELETE', `/api/friends/${erin.id}`);
    await expectProbeFriends(erin, 0);
    await finnRow.getByRole('button', { name: `Invite ${finn.displayName}`, exact: true }).click();
    await expectToast(page, 'Failed to send invitation', CHALLENGE_MESSAGES.friendsOnly);
    // Nothing was sent: the row still offers Invite, and her sent list has no invitation.
    await finnRow.getByRole('button', { name: `Invite ${finn.displayName}`, exact: true }).waitFor();
    const invitations = (await expectApi(stack.baseUrl, erin.token, 'GET', '/api/challenge-invitations')) as { sent: unknown[] };
    expect(invitations.sent).toEqual([]);
  });

  it('toasts the challenge that just completed, once, not one completed earlier and still unread', async () => {
    const gwen = await registerUser(stack.baseUrl, 'gwen');
    const soundtrack = CHALLENGE_KINDS.music_session.title;
    const pictureThis = CHALLENGE_KINDS.album_photo.title;
    for (const title of [soundtrack, pictureThis]) {
      await expectApi(stack.baseUrl, gwen.token, 'POST', `/api/challenges/${await challengeId(gwen, title)}/join`, { timeZone: ZONE });
    }
    // Soundtrack completes while she is away: its entry waits, unread, in her inbox.
    const track = { id: 'local-3', name: 'Song 2', artist: 'Blur', album: 'Blur', duration: 122, service: 'manual' };
    await logSessionViaApi(stack.baseUrl, gwen, { title: `Tunes ${gwen.username}`, beerCount: '1', duration: '30', musicTrack: JSON.stringify(track) });
    await expect.poll(async () => ((await expectApi(stack.baseUrl, gwen.token, 'GET', '/api/notifications/unread-count')) as { count: number }).count).toBe(1);

    const page = await openAs(gwen, '/challenges');
    await card(page, pictureThis).waitFor();
    // An album photo completes Picture this while she watches: the toast names it, and only it.
    const album = (await expectApi(stack.baseUrl, gwen.token, 'POST', '/api/albums', { name: 'Cellar' }, 201)) as { id: string };
    await uploadPhotosViaApi(stack.baseUrl, gwen, album, [await testImage('cellar.png', { background: '#92400e' })]);
    const shown = () => notifications(page).locator('.toast__title').allTextContents();
    await expect.poll(async () => (await shown()).length).toBe(1);
    expect(await shown()).toEqual([`Challenge completed: ${pictureThis}`]);
    await card(page, pictureThis).getByText('Completed', { exact: true }).waitFor();
    expect(await notifications(page).getByText(`Challenge completed: ${soundtrack}`).count()).toBe(0);
  });

  it('counts only what happens after joining, counts down to the end of the day, and shows a sent invitation expire', async () => {
    const [hank, ivy] = await Promise.all([registerUser(stack.baseUrl, 'hank'), registerUser(stack.baseUrl, 'ivy')]);
    await makeFriends(stack.baseUrl, hank, ivy);
    const soundtrack = CHALLENGE_KINDS.music_session.title;
    const slow = CHALLENGE_KINDS.slow_pace.title;
    // A slow session with music, before he joins Soundtrack: Take it slow (joined first) completing shows the service has counted it.
    await expectApi(stack.baseUrl, hank.token, 'POST', `/api/challenges/${await challengeId(hank, slow)}/join`, { timeZone: ZONE });
    const track = { id: 'local-4', name: 'Come Together', artist: 'The Beatles', album: 'Abbey Road', duration: 259, service: 'manual' };
    const music = { beerCount: '1', duration: '60', musicTrack: JSON.stringify(track) };
    await logSessionViaApi(stack.baseUrl, hank, { title: `Before ${hank.username}`, ...music });
    await expect.poll(async () => (await todayOf(hank)).get(slow)?.isCompleted).toBe(true);

    // Joining Soundtrack now starts at 0/1: the earlier session is not what he did for it.
    const page = await openAs(hank, '/challenges');
    const mine = card(page, soundtrack);
    await mine.getByRole('button', { name: 'Join', exact: true }).click();
    await mine.getByText('Joined', { exact: true }).waitFor();
    await expectProgress(mine, `Progress on ${soundtrack}`, 0, 1);
    await page.reload();
    await expectProgress(mine, `Progress on ${soundtrack}`, 0, 1);
    expect(await mine.getAttribute('data-completed')).toBe('false');

    // He invites Ivy; his list shows it pending.
    const soundtrackId = await challengeId(hank, soundtrack);
    await expect.poll(async () => (await callApi(stack.baseUrl, hank.token, 'POST', `/api/challenges/${soundtrackId}/invitations`, { friendId: ivy.id })).status).toBe(201);
    await page.reload();
    const sent = listItem(page, 'Sent invitations', ivy.displayName);
    await sent.getByRole('button', { name: 'Pending', exact: true }).waitFor();

    // The card counts down to the end of his day, and keeps counting on an open page.
    const endsAt = Date.parse((await todayOf(hank)).get(soundtrack)?.endsAt ?? '');
    // The page's clock keeps running from there: the half minute is room for the steps between.
    await page.clock.install({ time: endsAt - (5 * 60 + 20) * 60_000 - 30_000 });
    await page.reload();
    await mine.getByText('Ends in 5 h', { exact: true }).waitFor();
    await page.clock.fastForward('05:08:00');
    await mine.getByText('Ends in 12 min', { exact: true }).waitFor();
    // Past its end: 'Ended', no Invite, and the invitation that waited has expired.
    await page.clock.fastForward('00:13:00');
    await mine.getByText('Ended', { exact: true }).waitFor();
    expect(await mine.getByRole('button', { name: 'Invite', exact: true }).count()).toBe(0);
    await sent.getByRole('button', { name: 'Expired', exact: true }).waitFor();

    // Something done after joining counts (on his real clock, in a fresh page).
    await logSessionViaApi(stack.baseUrl, hank, { title: `After ${hank.username}`, ...music });
    await expect.poll(async () => (await todayOf(hank)).get(soundtrack)?.isCompleted).toBe(true);
  });

  it('shows completed challenges as badges on profiles, and no row where there are none', async () => {
    const [erin, finn] = await Promise.all([registerUser(stack.baseUrl, 'erin'), registerUser(stack.baseUrl, 'finn')]);
    await makeFriends(stack.baseUrl, erin, finn);
    const soundtrackId = await challengeId(erin, CHALLENGE_KINDS.music_session.title);
    await expectApi(stack.baseUrl, erin.token, 'POST', `/api/challenges/${soundtrackId}/join`, { timeZone: ZONE });
    const track = { id: 'local-2', name: 'Tubthumping', artist: 'Chumbawamba', album: 'Tubthumper', duration: 278, service: 'manual' };
    await logSessionViaApi(stack.baseUrl, erin, { title: `Pints and tunes ${erin.username}`, beerCount: '1', duration: '30', musicTrack: JSON.stringify(track) });
    await expect.poll(async () => (await todayOf(erin)).get(CHALLENGE_KINDS.music_session.title)?.isCompleted).toBe(true);
    const date = (await todayOf(erin)).get(CHALLENGE_KINDS.music_session.title)?.date ?? '';
    const shown = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

    const page = await openAs(erin, '/my-profile');
    const row = page.getByRole('list', { name: 'Completed challenges', exact: true });
    await row.getByText(CHALLENGE_KINDS.music_session.title, { exact: true }).waitFor();
    await row.getByText(shown, { exact: true }).waitFor();

    // Her friend sees the row on her profile; his own profile, with none, has no row.
    const f = await openAs(finn, `/users/${erin.id}`);
    await f.getByRole('list', { name: 'Completed challenges', exact: true }).getByText(CHALLENGE_KINDS.music_session.title, { exact: true }).waitFor();
    expect(await axeProblems(f, 'a profile with completed challenges')).toEqual([]);
    const ownRow = f.waitForResponse((res) => new URL(res.url()).pathname === `/api/users/${finn.id}/challenges`);
    await f.goto('/my-profile');
    await f.getByRole('heading', { level: 1, name: 'My Profile', exact: true }).waitFor();
    await f.getByRole('region', { name: 'Stats', exact: true }).waitFor();
    // Answered (empty), and rendered: no heading, no list.
    expect((await ownRow).status()).toBe(200);
    await f.getByRole('region', { name: 'No activities yet', exact: true }).waitFor();
    expect(await f.getByRole('heading', { name: 'Completed challenges' }).count()).toBe(0);
    expect(await notifications(f).locator('.toast--destructive').count()).toBe(0);
  });
});
