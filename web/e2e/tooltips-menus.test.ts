import type { FeedSession } from '@hoptrack/proto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectApi, logSessionViaApi, registerUser, useE2eStack, type RegisteredUser } from './support';

/**
 * Spec section 9's timings of tooltips and menus (issue 25): a tooltip opens
 * 700 ms after hover or focus, at once when another closed less than 300 ms
 * before; typed letters in an open menu make one search until 1000 ms after
 * the last. The browser's clock stands still, so only `runFor` moves time and
 * every wait is a condition.
 */
const stack = useE2eStack();

/** Spec section 9, in milliseconds. */
const TOOLTIP_DELAY = 700;
const TOOLTIP_SKIP_DELAY = 300;
const TYPEAHEAD_RESET = 1000;

const TITLE = 'Tooltip timing pints';

/** `user`'s feed with one session of theirs on it, the browser's clock installed and paused. */
async function openFeedWithSession(user: RegisteredUser): Promise<{ page: Page; card: Locator }> {
  const session = await logSessionViaApi(stack.baseUrl, user, { title: TITLE, beerCount: '2', duration: '60' });
  // The owner's own timeline learns of it by an event.
  await expect
    .poll(async () => ((await expectApi(stack.baseUrl, user.token, 'GET', '/api/sessions')) as FeedSession[]).some((s) => s.id === session.id))
    .toBe(true);
  const page = await stack.openAs(user, '/');
  await page.clock.install();
  await page.reload();
  const card = page.getByRole('article', { name: TITLE, exact: true });
  await card.waitFor();
  await page.clock.pauseAt(Date.now() + 1000);
  return { page, card };
}

const reaction = (card: Locator, name: string) => card.getByRole('group', { name: 'Reactions', exact: true }).getByRole('button', { name, exact: true });
const tooltips = (page: Page) => page.getByRole('tooltip');

/** The pointer somewhere with no tooltip. */
async function pointerAway(page: Page): Promise<void> {
  await page.mouse.move(2, 400);
}

/** Waits until `name` is the one tooltip shown, and describes its trigger. */
async function expectTooltip(page: Page, trigger: Locator, name: string): Promise<void> {
  const tip = page.getByRole('tooltip', { name, exact: true });
  await tip.waitFor();
  expect(await tooltips(page).count()).toBe(1);
  expect(await trigger.getAttribute('aria-describedby')).toBe(await tip.getAttribute('id'));
}

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

describe('tooltips', () => {
  it('open 700 ms after hover or focus, at once within 300 ms of another closing, and close on leaving, pressing and Escape', async () => {
    const { page, card } = await openFeedWithSession(await registerUser(stack.baseUrl, 'tips'));
    const thumbs = reaction(card, 'Thumbs up');

    // The first waits the whole delay.
    await thumbs.hover();
    await page.clock.runFor(TOOLTIP_DELAY - 1);
    expect(await tooltips(page).count()).toBe(0);
    await page.clock.runFor(1);
    await expectTooltip(page, thumbs, 'Thumbs up');

    // Straight on to the next trigger: at once.
    const heart = reaction(card, 'Heart');
    await heart.hover();
    await expectTooltip(page, heart, 'Heart');

    // Away, then to another within the skip delay: at once, with no time passing.
    await pointerAway(page);
    await tooltips(page).waitFor({ state: 'detached' });
    await page.clock.runFor(TOOLTIP_SKIP_DELAY - 100);
    const laugh = reaction(card, 'Laugh');
    await laugh.hover();
    await expectTooltip(page, laugh, 'Laugh');

    // Away for longer than the skip delay: the next waits the whole delay again.
    await pointerAway(page);
    await tooltips(page).waitFor({ state: 'detached' });
    await page.clock.runFor(TOOLTIP_SKIP_DELAY + 1);
    const beer = reaction(card, 'Beer');
    await beer.hover();
    await page.clock.runFor(TOOLTIP_DELAY - 1);
    expect(await tooltips(page).count()).toBe(0);
    await page.clock.runFor(1);
    await expectTooltip(page, beer, 'Beer');

    // Pressing the trigger closes it, and the focus the press gives does not bring it back.
    // (Released elsewhere: no click, so the reaction stays as it was.)
    await page.mouse.down();
    await tooltips(page).waitFor({ state: 'detached' });
    await page.clock.runFor(TOOLTIP_DELAY * 2);
    expect(await tooltips(page).count()).toBe(0);
    await pointerAway(page);
    await page.mouse.up();

    // Keyboard focus waits the same delay; Escape closes.
    await page.clock.runFor(TOOLTIP_SKIP_DELAY + 1);
    const fire = reaction(card, 'Fire');
    await fire.focus();
    await page.clock.runFor(TOOLTIP_DELAY - 1);
    expect(await tooltips(page).count()).toBe(0);
    await page.clock.runFor(1);
    await expectTooltip(page, fire, 'Fire');
    await page.keyboard.press('Escape');
    await tooltips(page).waitFor({ state: 'detached' });
    expect(await fire.getAttribute('aria-describedby')).toBeNull();
  });

  it('shows no tooltip when the pointer leaves before the delay', async () => {
    const { page } = await openFeedWithSession(await registerUser(stack.baseUrl, 'tipsleave'));
    const bell = page.getByRole('link', { name: 'Notifications', exact: true });
    await bell.hover();
    await page.clock.runFor(TOOLTIP_DELAY - 100);
    await pointerAway(page);
    await page.clock.runFor(TOOLTIP_DELAY);
    expect(await tooltips(page).count()).toBe(0);
    // A tooltip that never opened starts no skip delay: the next waits the whole delay.
    await bell.hover();
    await page.clock.runFor(TOOLTIP_DELAY - 1);
    expect(await tooltips(page).count()).toBe(0);
    await page.clock.runFor(1);
    await expectTooltip(page, bell, 'Notifications');
  });
});

describe('menu type-ahead', () => {
  it('moves focus to the item starting with the typed letters, which add up until 1000 ms after the last', async () => {
    const { page, card } = await openFeedWithSession(await registerUser(stack.baseUrl, 'typeahead'));
    await page.getByRole('button', { name: 'Account menu', exact: true }).click();
    const menu = page.getByRole('menu', { name: 'Account', exact: true });
    await menu.waitFor();
    await expect.poll(() => focusedText(page)).toBe('My Profile');

    await page.keyboard.press('p');
    await expect.poll(() => focusedText(page)).toBe('Privacy');
    // 'pl' names no item: focus stays.
    await page.keyboard.press('l');
    // Still one search just before the reset: 'pll' names no item either, where 'l' alone would be Logout.
    await page.clock.runFor(TYPEAHEAD_RESET - 1);
    await page.keyboard.press('l');
    expect(await focusedText(page)).toBe('Privacy');
    // The reset counts from the last key; after it, 'l' starts a new search.
    await page.clock.runFor(TYPEAHEAD_RESET);
    await page.keyboard.press('l');
    await expect.poll(() => focusedText(page)).toBe('Logout');
    // Two letters in a row make one search ('my'), wrapping round to the top.
    await page.clock.runFor(TYPEAHEAD_RESET);
    await page.keyboard.press('m');
    await page.keyboard.press('y');
    await expect.poll(() => focusedText(page)).toBe('My Profile');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    // The session card's menu too.
    await page.clock.runFor(TYPEAHEAD_RESET);
    await card.getByRole('button', { name: 'Session options', exact: true }).click();
    await card.getByRole('menu', { name: 'Session options', exact: true }).waitFor();
    await expect.poll(() => focusedText(page)).toBe('Edit');
    await page.keyboard.press('d');
    await expect.poll(() => focusedText(page)).toBe('Delete');
  });
});
