import type { PresenceEntry } from '@hoptrack/proto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, expectApi, logSessionViaApi, makeFriends, registerUser, useE2eStack, waitForSocialUser, type RegisteredUser } from './support';

/**
 * Presence in the browser (issue 25, item 1): a friend with the app open has
 * a green dot (named "Online") on his avatar in Alice's friends list, his
 * profile and their chat, pushed by the live stream with no reload; Show
 * Online Status off on /privacy takes it away at once.
 */
const stack = useE2eStack();

const friendCard = (page: Page, friend: RegisteredUser): Locator =>
  page.getByRole('list', { name: 'My friends', exact: true }).getByRole('listitem', { name: friend.displayName, exact: true });
const onlineDots = (scope: Page | Locator): Locator => scope.getByRole('img', { name: 'Online', exact: true });

/** Waits until messaging knows the two are friends: Alice is answered about Bob (offline, before he opens the app). */
async function waitForPresenceAudience(viewer: RegisteredUser, friend: RegisteredUser): Promise<void> {
  await expect
    .poll(async () => {
      const answer = await callApi(stack.baseUrl, viewer.token, 'GET', `/api/presence?ids=${friend.id}`);
      return (answer.body as PresenceEntry[] | null)?.map((entry) => entry.userId);
    })
    .toEqual([friend.id]);
}

describe('online status', () => {
  it('Alice sees the dot on her friend Bob while he has the app open; his Show Online Status off takes it away', async () => {
    const [alice, bob] = await Promise.all([registerUser(stack.baseUrl, 'presalice'), registerUser(stack.baseUrl, 'presbob')]);
    await makeFriends(stack.baseUrl, alice, bob);
    await waitForPresenceAudience(alice, bob);

    const page = await stack.openAs(alice, '/friends?tab=friends');
    const bobCard = friendCard(page, bob);
    await bobCard.waitFor();
    expect(await onlineDots(bobCard).count()).toBe(0);

    // Bob opens the app: his live stream makes him online, and Alice's list hears of it without a reload.
    const bobPage = await stack.openAs(bob, '/');
    await onlineDots(bobCard).waitFor();

    // His profile and their chat show it too.
    const profile = await stack.openAs(alice, `/users/${bob.id}`);
    await onlineDots(profile.getByRole('region', { name: 'Profile' })).waitFor();
    await profile.getByRole('region', { name: 'Profile' }).getByText('Online', { exact: true }).waitFor();
    await expectApi(stack.baseUrl, alice.token, 'POST', '/api/messages', { toUserId: bob.id, content: 'Pints tonight?' }, 201);
    const chat = await stack.openAs(alice, `/dm?user=${bob.id}`);
    await onlineDots(chat.getByRole('list', { name: 'Threads', exact: true }).getByRole('listitem', { name: bob.displayName, exact: true })).waitFor();
    await onlineDots(chat.locator('.chat-header')).waitFor();

    await bobPage.goto('/privacy');
    const toggle = bobPage.getByRole('switch', { name: 'Show Online Status' });
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');

    // Hidden from everyone at once (no grace): the dot goes while Bob is still there.
    await expect.poll(() => onlineDots(bobCard).count()).toBe(0);
    expect(await callApi(stack.baseUrl, alice.token, 'GET', `/api/presence?ids=${bob.id}`)).toEqual({ status: 200, body: [] });
  });

  it('a new friendship shows both dots and the new friend\'s earlier sessions at once, on both sides, without a reload (issue 40, item 8)', async () => {
    const [alice, bob] = await Promise.all([registerUser(stack.baseUrl, 'newalice'), registerUser(stack.baseUrl, 'newbob')]);
    // Bob's profile is private: his session reaches Alice's feed only as a friend's (the backfill of the friendship, not of the request).
    await expectApi(stack.baseUrl, bob.token, 'PUT', '/api/privacy', { isProfilePrivate: true });
    const title = `Earlier pints ${bob.username}`;
    await logSessionViaApi(stack.baseUrl, bob, { title, beerCount: '2', duration: '60' });
    await waitForSocialUser(stack.baseUrl, alice, bob);
    await waitForSocialUser(stack.baseUrl, bob, alice);
    const request = (await expectApi(stack.baseUrl, alice.token, 'POST', '/api/friendships', { friendId: bob.id }, 201)) as { id: string };

    const aliceFeed = await stack.openAs(alice, '/');
    await aliceFeed.getByRole('heading', { level: 1, name: 'Activity Feed' }).waitFor();
    const aliceFriends = await stack.openAs(alice, '/friends?tab=friends');
    const bobFriends = await stack.openAs(bob, '/friends?tab=friends');
    await aliceFriends.getByRole('heading', { name: 'No friends yet', exact: true }).waitFor();
    await bobFriends.getByRole('heading', { name: 'No friends yet', exact: true }).waitFor();
    expect(await aliceFeed.getByRole('article', { name: title, exact: true }).count()).toBe(0);

    // Bob accepts elsewhere (the API): every open screen hears of it by the live stream.
    await expectApi(stack.baseUrl, bob.token, 'PATCH', `/api/friendships/${request.id}`, { action: 'accept' }, 200);
    await onlineDots(friendCard(aliceFriends, bob)).waitFor();
    await onlineDots(friendCard(bobFriends, alice)).waitFor();
    // Only the `feed` push refetches her feed (the friendship's own push does not, and no timer looks again):
    // sessions sends it once the backfill is on her timeline and her feed would show it. Without it this waits in vain.
    await aliceFeed.getByRole('article', { name: title, exact: true }).waitFor();
  });
});
