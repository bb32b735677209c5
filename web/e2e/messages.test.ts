import { MESSAGE_MAX, type Conversation, type ConversationMessage, type DmMessage } from '@hoptrack/proto';
import type { Locator, Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  callApi,
  dismissToast,
  expectApi,
  expectToast,
  registerUser,
  signInWithToken,
  useE2eStack,
  waitForMessagingUser,
  waitForSocialUser,
  type RegisteredUser,
} from './support';
import { CONDITION_BOUND_MS } from '@hoptrack/testing/bounds';

/**
 * Messaging (issue 7) against the real stack: two people chatting in two
 * browsers, the conversation reaching the other screen live (list, unread
 * counts, the nav badge, read receipts) without a reload; /dm threads with
 * Enter and Shift+Enter; the new-conversation search, blank messages,
 * timestamps, direct messages turned off, failures, narrow screens.
 */
const stack = useE2eStack();

/** The time of day ('2:05 PM'; newer ICU puts a narrow no-break space before PM). */
const TIME = /^\d{1,2}:\d{2}\s[AP]M$/;
/** A date ('Mar 4, 2025'). */
const DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;

/** Two users the messaging service knows of, each able to address the other. */
async function twoUsers(a: string, b: string): Promise<[RegisteredUser, RegisteredUser]> {
  const first = await registerUser(stack.baseUrl, a);
  const second = await registerUser(stack.baseUrl, b);
  await waitForMessagingUser(stack.baseUrl, first, second);
  await waitForMessagingUser(stack.baseUrl, second, first);
  return [first, second];
}

const conversationList = (page: Page) => page.getByRole('list', { name: 'Conversations', exact: true });
const conversationItem = (page: Page, user: RegisteredUser) =>
  conversationList(page).getByRole('listitem', { name: user.displayName, exact: true });
const threadItem = (page: Page, user: RegisteredUser) =>
  page.getByRole('list', { name: 'Threads', exact: true }).getByRole('listitem', { name: user.displayName, exact: true });
const chat = (page: Page, user: RegisteredUser) => page.getByRole('region', { name: `Chat with ${user.displayName}`, exact: true });
const chatLog = (page: Page, user: RegisteredUser) => page.getByRole('log', { name: `Messages with ${user.displayName}`, exact: true });
const messageBox = (scope: Page | Locator) => scope.getByRole('textbox', { name: 'Write a message', exact: true });
const sendButton = (scope: Page | Locator) => scope.getByRole('button', { name: 'Send', exact: true });
const receipt = (scope: Page | Locator) => scope.getByTestId('read-receipt');
const navBadge = (page: Page, nav: 'Main' | 'Bottom navigation' = 'Main') =>
  page.getByRole('navigation', { name: nav, exact: true }).getByRole('link', { name: /^Messages/ }).getByTestId('nav-badge');
const noConversations = (page: Page) => page.getByRole('region', { name: 'No conversations yet', exact: true });

const isCall = (method: string, path: string | RegExp) => (request: Request) =>
  request.method() === method &&
  (typeof path === 'string' ? new URL(request.url()).pathname === path : path.test(new URL(request.url()).pathname));

/** The bubble texts of a chat, as rendered (line breaks included). */
async function bubbleTexts(log: Locator): Promise<string[]> {
  return log.locator('.message__content').evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).innerText));
}

describe('two people chatting', () => {
  it('delivers live: A writes from /messages?user=B, B sees it unread, opens it, A sees it read, B replies from /dm', async () => {
    const [alice, bob] = await twoUsers('alice', 'bob');

    // Bob waits on /messages with nothing yet.
    const b = await stack.openAs(bob, '/messages');
    await noConversations(b).waitFor();
    expect(await navBadge(b).count()).toBe(0);

    // Alice opens a conversation with Bob from the URL: POST /api/conversations, then it is selected.
    const a = await stack.open('/').then(({ page }) => page);
    const started = a.waitForRequest(isCall('POST', '/api/conversations'));
    await signInWithToken(a, alice.token, `/messages?user=${bob.id}`);
    expect((await started).postDataJSON()).toEqual({ participantId: bob.id });
    await chat(a, bob).waitFor();
    await a.waitForURL(/\/messages\?conversation=[0-9a-f-]{36}$/);
    await chatLog(a, bob).getByText('No messages yet. Say hello!').waitFor();
    expect(await sendButton(a).isDisabled()).toBe(true);

    await messageBox(a).fill('  Hello Bob, pints tonight?  ');
    const sent = a.waitForRequest(isCall('POST', /^\/api\/conversations\/[0-9a-f-]{36}\/messages$/));
    await sendButton(a).click();
    expect((await sent).postDataJSON()).toEqual({ content: 'Hello Bob, pints tonight?' });
    await chatLog(a, bob).getByText('Hello Bob, pints tonight?', { exact: true }).waitFor();
    expect(await messageBox(a).inputValue()).toBe('');
    await expect.poll(() => receipt(chat(a, bob)).textContent()).toBe('Sent');
    await conversationItem(a, bob).getByText('You: Hello Bob, pints tonight?', { exact: true }).waitFor();

    // Bob's open screen gets it without a reload: the conversation, unread, and the nav badge.
    const fromAlice = conversationItem(b, alice);
    await fromAlice.getByTestId('unread-count').waitFor();
    expect(await fromAlice.getByTestId('unread-count').textContent()).toBe('1 unread');
    expect(await fromAlice.getByText('Hello Bob, pints tonight?', { exact: true }).count()).toBe(1);
    expect(await fromAlice.locator('time').textContent()).toMatch(TIME);
    await navBadge(b).waitFor();
    expect(await navBadge(b).textContent()).toBe('1 unread');

    // Bob opens it: PATCH …/read; his counts clear.
    const read = b.waitForRequest(isCall('PATCH', /^\/api\/conversations\/[0-9a-f-]{36}\/read$/));
    await fromAlice.getByRole('link').click();
    await read;
    await chatLog(b, alice).getByText('Hello Bob, pints tonight?', { exact: true }).waitFor();
    await fromAlice.getByTestId('unread-count').waitFor({ state: 'detached' });
    await navBadge(b).waitFor({ state: 'detached' });

    // Alice's screen shows it read, without a reload.
    await expect.poll(() => receipt(chat(a, bob)).textContent()).toBe('Read');

    // Bob replies from /dm: Shift+Enter makes a new line, Enter sends.
    await b.goto('/dm');
    await threadItem(b, alice).getByRole('link').click();
    await b.waitForURL(`**/dm?user=${alice.id}`);
    const bobChat = chat(b, alice);
    await chatLog(b, alice).getByText('Hello Bob, pints tonight?', { exact: true }).waitFor();
    const box = messageBox(bobChat);
    await box.pressSequentially('Cheers!');
    await box.press('Shift+Enter');
    await box.pressSequentially('See you at 8');
    expect(await box.inputValue()).toBe('Cheers!\nSee you at 8');
    const dm = b.waitForRequest(isCall('POST', '/api/messages'));
    await box.press('Enter');
    expect((await dm).postDataJSON()).toEqual({ toUserId: alice.id, content: 'Cheers!\nSee you at 8' });
    await expect.poll(() => box.inputValue()).toBe('');
    await expect.poll(() => bubbleTexts(chatLog(b, alice))).toEqual(['Hello Bob, pints tonight?', 'Cheers!\nSee you at 8']);

    // It reaches Alice's open chat with its line break; she has it open, so it is read at once and Bob's /dm says so.
    await expect.poll(() => bubbleTexts(chatLog(a, bob))).toEqual(['Hello Bob, pints tonight?', 'Cheers!\nSee you at 8']);
    await expect.poll(() => receipt(bobChat).textContent()).toBe('Read');
    await navBadge(a).waitFor({ state: 'detached' });
  });
});

describe('the live stream', () => {
  it('reconnects after failing and catches up on what it missed once ready', async () => {
    const [alice, bob] = await twoUsers('alice', 'bob');
    const page = await stack.openAs(bob, '/');
    // The stream is refused (as by a restarting instance) until `up`.
    let up = false;
    let attempts = 0;
    await page.route(
      (url) => url.pathname === '/api/messages/events',
      async (route) => {
        attempts += 1;
        if (up) await route.continue();
        else await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'restarting' }) });
      },
    );
    await page.goto('/messages');
    await noConversations(page).waitFor();
    await expect.poll(() => attempts, { timeout: CONDITION_BOUND_MS }).toBeGreaterThanOrEqual(2);

    // Sent while Bob's stream is down: nothing tells his screen.
    await expectApi(stack.baseUrl, alice.token, 'POST', '/api/messages', { toUserId: bob.id, content: 'Did you get this?' }, 201);
    up = true;
    // The next attempt connects; `ready` refetches the list, the unread count and the badge.
    const item = conversationItem(page, alice);
    await item.getByText('Did you get this?', { exact: true }).waitFor({ timeout: CONDITION_BOUND_MS });
    expect(await item.getByTestId('unread-count').textContent()).toBe('1 unread');
    await navBadge(page).waitFor();
  });
});

describe('the conversation list', () => {
  it('shows 5 skeleton rows while the list loads', async () => {
    const alice = await registerUser(stack.baseUrl, 'alice');
    const page = await stack.openAs(alice, '/');
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/api/conversations',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Messages/ }).click();
    const skeleton = page.getByRole('status', { name: 'Loading conversations', exact: true });
    await skeleton.waitFor();
    expect(await skeleton.getByTestId('conversation-skeleton').count()).toBe(5);
    release();
    await noConversations(page).waitFor();
    expect(await skeleton.count()).toBe(0);
  });

  it('searches people only for non-blank text, starts a conversation from a result, and refuses blank messages', async () => {
    const [alice, carol] = await twoUsers('alice', 'carol');
    await waitForSocialUser(stack.baseUrl, alice, carol);
    const page = await stack.openAs(alice, '/messages');
    // The browser's clock, so that the search's typing pause can be made to pass for sure.
    await page.clock.install();
    await page.reload();
    await noConversations(page).waitFor();

    const searches: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/users/search') searches.push(url.searchParams.get('q') ?? '');
    });
    const search = page.getByRole('searchbox', { name: 'Search people to message', exact: true });
    await search.fill('   ');
    // Blank: the list stays, nothing is searched. The clock runs past the 250 ms the search waits
    // for typing to pause, so a search of the blank text, had it been made, would come before the next.
    await page.clock.runFor(1000);
    await noConversations(page).waitFor();

    await search.fill(` ${carol.username} `);
    await page.clock.runFor(1000);
    const result = page.getByRole('list', { name: 'Search results', exact: true }).getByRole('listitem', { name: carol.displayName, exact: true });
    await result.getByText(`@${carol.username}`).waitFor();
    expect(searches).toEqual([carol.username]);
    await result.getByRole('button', { name: 'Message', exact: true }).click();

    const pane = chat(page, carol);
    await pane.waitFor();
    await page.waitForURL(/\/messages\?conversation=/);
    expect(await search.inputValue()).toBe('');
    // The new, empty conversation is listed (for whoever started it) and selected.
    expect(await conversationItem(page, carol).getByRole('link').getAttribute('aria-current')).toBe('true');
    expect(await pane.getByRole('link', { name: carol.displayName, exact: true }).getAttribute('href')).toBe(`/users/${carol.id}`);

    // Blank text cannot be sent, by button or by Enter.
    expect(await sendButton(pane).isDisabled()).toBe(true);
    await messageBox(pane).fill('  \n  ');
    expect(await sendButton(pane).isDisabled()).toBe(true);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/messages')) posts.push(request.url());
    });
    await messageBox(pane).press('Enter');
    expect(posts).toEqual([]);

    // Near the limit a counter shows; past it nothing is cut: the text stays whole, the counter says by how much, Send waits (issue 40).
    const count = pane.locator('.character-count');
    await messageBox(pane).fill('x'.repeat(MESSAGE_MAX - 10));
    await expect.poll(() => count.textContent()).toBe(`${(MESSAGE_MAX - 10).toLocaleString('en-US')} / ${MESSAGE_MAX.toLocaleString('en-US')}`);
    await messageBox(pane).fill('x'.repeat(MESSAGE_MAX + 12));
    await expect.poll(() => count.textContent()).toBe('12 characters too many');
    expect((await messageBox(pane).inputValue()).length).toBe(MESSAGE_MAX + 12);
    expect(await sendButton(pane).isDisabled()).toBe(true);
    await messageBox(pane).press('Enter');
    expect(posts).toEqual([]);
    await pane.getByText('Enter sends, Shift+Enter starts a new line.', { exact: true }).waitFor();

    await messageBox(pane).fill('First round is on me');
    expect(await count.count()).toBe(0);
    expect(await sendButton(pane).isEnabled()).toBe(true);
    await messageBox(pane).press('Enter');
    await chatLog(page, carol).getByText('First round is on me', { exact: true }).waitFor();
    // Today's message: its time, in the chat and in the list.
    expect(await chatLog(page, carol).locator('time').last().textContent()).toMatch(TIME);
    const item = conversationItem(page, carol);
    await item.getByText('You: First round is on me', { exact: true }).waitFor();
    expect(await item.locator('time').textContent()).toMatch(TIME);
  });

  it("shows a deleted account's conversation as 'Deleted user', with no dangling '@' and no profile link (issue 40)", async () => {
    const [alice, gone] = await twoUsers('alice', 'gone');
    const conversation = (await expectApi(stack.baseUrl, alice.token, 'POST', '/api/conversations', { participantId: gone.id }, 201)) as Conversation;
    // Alice's own message keeps the conversation hers once Gone's are erased.
    await expectApi(stack.baseUrl, alice.token, 'POST', `/api/conversations/${conversation.id}/messages`, { content: 'See you around' }, 201);
    await expectApi(stack.baseUrl, gone.token, 'POST', `/api/conversations/${conversation.id}/messages`, { content: 'Bye for now' }, 201);
    await expectApi(stack.baseUrl, gone.token, 'DELETE', '/api/me', { password: gone.password, confirm: 'DELETE' });
    // Messaging erases its part by an event of its own, a moment after the deletion answered.
    await expect
      .poll(async () => JSON.stringify(await expectApi(stack.baseUrl, alice.token, 'GET', '/api/conversations')), { timeout: 30_000 })
      .toContain('"displayName":"Deleted user"');

    const page = await stack.openAs(alice, `/messages?conversation=${conversation.id}`);
    const pane = page.getByRole('region', { name: 'Chat with Deleted user', exact: true });
    await pane.locator('.chat-header__name').getByText('Deleted user', { exact: true }).waitFor();
    expect(await pane.locator('.chat-header__username').count()).toBe(0);
    expect(await pane.locator('.chat-header').getByRole('link').count()).toBe(0);
    expect(await pane.locator('.chat-header').textContent()).not.toContain('@');
  });

  it('shows the date, not the time, for activity older than 24 hours', async () => {
    const [alice, dave] = await twoUsers('alice', 'dave');
    const conversation = (await expectApi(stack.baseUrl, alice.token, 'POST', '/api/conversations', { participantId: dave.id }, 201)) as Conversation;
    await expectApi(stack.baseUrl, alice.token, 'POST', `/api/conversations/${conversation.id}/messages`, { content: 'Long time no see' }, 201);

    // The only way to have an old message is to age the real answer on its way to the page.
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000).toISOString();
    const page = await stack.openAs(alice, '/');
    await page.route(
      (url) => url.pathname === '/api/conversations',
      async (route) => {
        const response = await route.fetch();
        const list = (await response.json()) as Conversation[];
        const aged = list.map((item) => ({
          ...item,
          lastMessageAt: threeDaysAgo,
          lastMessage: item.lastMessage && { ...item.lastMessage, createdAt: threeDaysAgo },
        }));
        await route.fulfill({ response, json: aged });
      },
    );
    await page.goto('/messages');
    const item = conversationItem(page, dave);
    await item.getByText('You: Long time no see', { exact: true }).waitFor();
    expect(await item.locator('time').textContent()).toMatch(DATE);
    expect(await item.locator('time').getAttribute('datetime')).toBe(threeDaysAgo);
  });
});

describe('direct messages turned off', () => {
  it('refuses a new conversation with a toast, and disables the box of an existing one', async () => {
    const alice = await registerUser(stack.baseUrl, 'alice');
    const bob = await registerUser(stack.baseUrl, 'bob');
    const carol = await registerUser(stack.baseUrl, 'carol');
    for (const viewer of [alice, carol]) await waitForMessagingUser(stack.baseUrl, viewer, bob);
    // Carol started a conversation with Bob while he still accepted direct messages.
    const existing = (await expectApi(stack.baseUrl, carol.token, 'POST', '/api/conversations', { participantId: bob.id }, 201)) as Conversation;
    expect(existing.canMessage).toBe(true);

    await expectApi(stack.baseUrl, bob.token, 'PUT', '/api/privacy', { allowDirectMessages: false });
    // The messaging service hears of it by an event.
    await expect
      .poll(async () => {
        const list = (await callApi(stack.baseUrl, carol.token, 'GET', '/api/conversations')).body as Conversation[];
        return list.find((item) => item.id === existing.id)?.canMessage;
      }, { timeout: CONDITION_BOUND_MS })
      .toBe(false);

    // Alice has no conversation with Bob: starting one is refused.
    const a = await stack.openAs(alice, `/messages?user=${bob.id}`);
    await expectToast(a, 'Failed to start conversation', 'This user does not accept direct messages');
    await a.waitForURL((url) => url.pathname === '/messages' && url.search === '');
    await a.getByRole('region', { name: 'Your messages', exact: true }).waitFor();
    expect(await a.getByRole('region', { name: /^Chat with/ }).count()).toBe(0);

    // Carol's existing conversation stays readable, but she cannot write.
    const c = await stack.openAs(carol, `/messages?user=${bob.id}`);
    const pane = chat(c, bob);
    await pane.getByText(`${bob.displayName} does not accept direct messages.`, { exact: true }).waitFor();
    expect(await messageBox(pane).isDisabled()).toBe(true);
    expect(await sendButton(pane).isDisabled()).toBe(true);
  });
});

describe('failures', () => {
  it("toasts 'Failed to mark as read' and 'Failed to send message' (with the server's reason), keeping the text", async () => {
    const [alice, bob] = await twoUsers('alice', 'bob');
    await expectApi(stack.baseUrl, alice.token, 'POST', '/api/messages', { toUserId: bob.id, content: 'Are you in?' }, 201);

    const page = await stack.openAs(bob, '/');
    await page.route(/\/api\/conversations\/[0-9a-f-]{36}\/read$/, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'Read store down' }) }),
    );
    await page.goto('/messages');
    await conversationItem(page, alice).getByRole('link').click();
    await expectToast(page, 'Failed to mark as read', 'Read store down');
    await dismissToast(page);

    await page.route(/\/api\/conversations\/[0-9a-f-]{36}\/messages$/, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message: 'You cannot message this user' }) })
        : route.continue(),
    );
    const pane = chat(page, alice);
    await messageBox(pane).fill('Yes!');
    await sendButton(pane).click();
    await expectToast(page, 'Failed to send message', 'You cannot message this user');
    expect(await messageBox(pane).inputValue()).toBe('Yes!');
    await expect.poll(() => sendButton(pane).isEnabled()).toBe(true);
    expect(await bubbleTexts(chatLog(page, alice))).toEqual(['Are you in?']);
  });
});

describe('/dm threads', () => {
  it('marks each unread message of an opened thread read, one PUT each', async () => {
    const [alice, bob] = await twoUsers('alice', 'bob');
    const first = (await expectApi(stack.baseUrl, alice.token, 'POST', '/api/messages', { toUserId: bob.id, content: 'Ping' }, 201)) as DmMessage;
    const second = (await expectApi(stack.baseUrl, alice.token, 'POST', '/api/messages', { toUserId: bob.id, content: 'Pong?' }, 201)) as DmMessage;

    const page = await stack.openAs(bob, '/dm');
    const thread = threadItem(page, alice);
    expect(await thread.getByTestId('unread-count').textContent()).toBe('2 unread');
    expect(await thread.getByText('Pong?', { exact: true }).count()).toBe(1);
    await navBadge(page).waitFor();
    expect(await navBadge(page).textContent()).toBe('2 unread');

    const marked: string[] = [];
    page.on('request', (request) => {
      const match = /^\/api\/messages\/([0-9a-f-]{36})\/read$/.exec(new URL(request.url()).pathname);
      if (request.method() === 'PUT' && match?.[1]) marked.push(match[1]);
    });
    await thread.getByRole('link').click();
    await expect.poll(() => bubbleTexts(chatLog(page, alice))).toEqual(['Ping', 'Pong?']);
    await thread.getByTestId('unread-count').waitFor({ state: 'detached' });
    await navBadge(page).waitFor({ state: 'detached' });
    expect(marked.sort()).toEqual([first.id, second.id].sort());
    // None of Bob's own: no receipt under Alice's messages.
    expect(await receipt(chat(page, alice)).count()).toBe(0);

    const seen = (await expectApi(stack.baseUrl, alice.token, 'GET', `/api/messages/${bob.id}`)) as DmMessage[];
    expect(seen.map((message) => message.isRead)).toEqual([true, true]);
    const sent = (await callApi(stack.baseUrl, bob.token, 'GET', `/api/conversations`)).body as Conversation[];
    expect(sent[0]?.unreadCount).toBe(0);
  });
});

describe('narrow screens', () => {
  it('badges the Messages tab live, shows the list, then the chat with a way back', async () => {
    const [alice, bob] = await twoUsers('alice', 'bob');
    const page = await stack.openAs(bob, '/', { narrow: true });
    await page.getByRole('heading', { level: 1, name: 'Activity Feed' }).waitFor();

    await expectApi(stack.baseUrl, alice.token, 'POST', '/api/messages', { toUserId: bob.id, content: 'Fancy a stout?' }, 201);
    const badge = navBadge(page, 'Bottom navigation');
    await badge.waitFor();
    expect(await badge.textContent()).toBe('1 unread');

    await page.getByRole('navigation', { name: 'Bottom navigation' }).getByRole('link', { name: /^Messages/ }).click();
    const item = conversationItem(page, alice);
    await item.waitFor();
    expect(await page.getByRole('region', { name: 'Your messages', exact: true }).isVisible()).toBe(false);

    await item.getByRole('link').click();
    const pane = chat(page, alice);
    await chatLog(page, alice).getByText('Fancy a stout?', { exact: true }).waitFor();
    expect(await conversationList(page).isVisible()).toBe(false);
    await badge.waitFor({ state: 'detached' });
    const box = await pane.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(390);

    await pane.getByRole('link', { name: 'Back to conversations', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/messages' && url.search === '');
    await item.waitFor();
    expect(await pane.count()).toBe(0);

    const chats = (await expectApi(stack.baseUrl, bob.token, 'GET', `/api/conversations`)) as Conversation[];
    const messages = (await expectApi(stack.baseUrl, bob.token, 'GET', `/api/conversations/${chats[0]?.id}/messages`)) as ConversationMessage[];
    expect(messages.map((message) => [message.content, message.isRead])).toEqual([['Fancy a stout?', true]]);
  });
});
