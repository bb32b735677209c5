import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { NARROW_VIEWPORT } from '@hoptrack/testing/browser';

/**
 * Layout probes of the phone-sized screens (390×844, issue 11): no sideways
 * scrolling, nothing behind the fixed bottom bar, dialogs inside the screen.
 * phone.test.ts runs them on every screen; a screen's own file may too.
 */

/** The page is no wider than the screen: a phone would otherwise scroll sideways. */
export async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const widths = await page.evaluate(() => ({
    document: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
    screen: window.innerWidth,
  }));
  expect(widths.screen, where).toBe(NARROW_VIEWPORT.width);
  expect(Math.max(widths.document, widths.body), `${where} is wider than the screen`).toBeLessThanOrEqual(widths.screen);
}

/**
 * Waits until nothing on the screen is loading any more: no skeleton, spinner
 * or list marked busy. A screen's heading shows before its data; the list
 * that comes after can make the page thousands of pixels longer.
 */
export async function waitForLoadedScreen(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('main [aria-busy="true"], main .skeleton, main .loading-state') === null);
}

/**
 * Scrolled to the end, the page's last control sits above the fixed bottom bar,
 * not under it. Scrolling and measuring happen in one script, so nothing that
 * arrives meanwhile (a list, a lazy image) can move the page between the two.
 */
export async function expectNothingUnderBottomBar(page: Page, where: string): Promise<void> {
  const bar = await page.getByRole('navigation', { name: 'Bottom navigation' }).boundingBox();
  expect(bar, 'the bottom bar is shown').not.toBeNull();
  await waitForLoadedScreen(page);
  const lastBottom = await page.evaluate(() => {
    window.scrollTo(0, document.documentElement.scrollHeight);
    const controls = Array.from(document.querySelectorAll<HTMLElement>('main a[href], main button, main input, main select, main textarea'));
    const visible = controls.filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden');
    return visible[visible.length - 1]?.getBoundingClientRect().bottom ?? null;
  });
  expect(lastBottom, `${where}: a control to measure`).not.toBeNull();
  expect(lastBottom, `${where}: the last control is hidden under the bottom bar`).toBeLessThanOrEqual(bar?.y ?? 0);
}

/** The dialog is inside the screen, and its last action can be scrolled into view and clicked. */
export async function expectDialogFits(page: Page, dialog: Locator, where: string): Promise<void> {
  await dialog.waitFor();
  const box = await dialog.boundingBox();
  expect(box, where).not.toBeNull();
  if (!box) return;
  expect(box.x, `${where}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${where}: right edge`).toBeLessThanOrEqual(NARROW_VIEWPORT.width);
  expect(box.y, `${where}: top edge`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${where}: bottom edge`).toBeLessThanOrEqual(NARROW_VIEWPORT.height);
  const last = dialog.getByRole('button').last();
  await last.scrollIntoViewIfNeeded();
  const action = await last.boundingBox();
  expect(action && action.y + action.height <= NARROW_VIEWPORT.height, `${where}: its last button is reachable`).toBe(true);
  await expectNoSidewaysScroll(page, where);
}
