import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { launchBrowser, openPage, type GeoPosition, type OpenedPage } from '@hoptrack/testing/browser';
import type { RegisteredUser, TestUser } from '@hoptrack/testing/api';
// The stack itself is started once for the project by the global setup (vitest.config.ts), which declares what it provides.
import type {} from './global-setup';
import { CONDITION_BOUND_MS } from '@hoptrack/testing/bounds';

// The API helpers live with the other shared test helpers; the browser files take them from here too.
export * from '@hoptrack/testing/api';

/** A position the seeded catalogue has bars around (the nearest is 'Pints Pub Brewery and Freehouse'). */
export const DENVER: GeoPosition = { latitude: 39.7392, longitude: -104.9903 };

export interface OpenOptions {
  /** A phone-sized screen (390×844) instead of 1280×800. */
  narrow?: boolean;
  /** Geolocation allowed and answered with this position. */
  geolocation?: GeoPosition;
}

/** Shared steps of the e2e tests: the stack harness, unique users, API shortcuts and common locators. */
export interface E2eHarness {
  /** The gateway's origin: the built web app and /api. */
  readonly baseUrl: string;
  /** A page in a fresh browser context (own localStorage), opened at `path`. */
  open(path: string, options?: OpenOptions): Promise<OpenedPage>;
  /** A fresh page signed in as `user` (signInWithToken), at `path`. */
  openAs(user: RegisteredUser, path: string, options?: OpenOptions): Promise<Page>;
}

/**
 * Registers the hooks of one e2e file: a browser of its own, on the
 * project's shared stack (web/e2e/global-setup.ts); after each test its pages
 * are closed and must have logged no errors.
 */
export function useE2eStack(): E2eHarness {
  const baseUrl = inject('e2eBaseUrl');
  if (!baseUrl) throw new Error('no shared stack: run the browser files in the e2e project (vitest --project e2e), whose global setup starts it');
  let browser: Browser | undefined;
  const opened: OpenedPage[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const tab of opened.splice(0)) {
      await tab.close();
      expect(tab.consoleErrors).toEqual([]);
    }
  });

  const open = async (path: string, options: OpenOptions = {}): Promise<OpenedPage> => {
    if (!browser) throw new Error('the browser is not started yet (open pages inside a test)');
    const tab = await openPage(browser, { baseUrl, path, ...options });
    opened.push(tab);
    return tab;
  };

  return {
    baseUrl,
    open,
    async openAs(user, path, options) {
      const { page } = await open('/', options);
      await signInWithToken(page, user.token, path);
      return page;
    },
  };
}

/** Signs the page in the way the app does it: the token in localStorage, then a fresh load. */
export async function signInWithToken(page: Page, token: string, path = '/'): Promise<void> {
  await page.goto('/');
  await page.evaluate((value) => window.localStorage.setItem('token', value), token);
  await page.goto(path);
  // The first signed-in load of a file meets cold services (first queries, JIT): allow it more than the default.
  await page.getByRole('button', { name: 'Account menu' }).waitFor({ timeout: CONDITION_BOUND_MS });
}

export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => window.localStorage.getItem('token'));
}

export function notifications(page: Page): Locator {
  return page.getByRole('status', { name: 'Notifications (F8)' });
}

/** Waits for a toast with this title (and description), and checks it is the only one shown. */
export async function expectToast(page: Page, title: string, description?: string): Promise<void> {
  const region = notifications(page);
  await region.getByText(title, { exact: true }).waitFor();
  if (description !== undefined) await region.getByText(description, { exact: true }).waitFor();
  expect(await region.locator('.toast').count()).toBe(1);
}

/** Closes the current toast, so that the next identical one is provably new. */
export async function dismissToast(page: Page): Promise<void> {
  const toast = notifications(page).locator('.toast');
  await notifications(page).getByRole('button', { name: 'Close notification' }).click();
  await toast.waitFor({ state: 'detached' });
}

export function authDialog(page: Page, title: string): Locator {
  return page.getByRole('dialog', { name: title });
}

export async function fillRegisterForm(
  dialog: Locator,
  values: Partial<TestUser> & { confirmPassword?: string },
): Promise<void> {
  await dialog.getByLabel('Email', { exact: true }).fill(values.email ?? '');
  await dialog.getByLabel('Username', { exact: true }).fill(values.username ?? '');
  await dialog.getByLabel('Display Name', { exact: true }).fill(values.displayName ?? '');
  await dialog.getByLabel('Password', { exact: true }).fill(values.password ?? '');
  await dialog.getByLabel('Confirm Password', { exact: true }).fill(values.confirmPassword ?? values.password ?? '');
}

export async function logInViaDialog(page: Page, email: string, password: string): Promise<void> {
  const dialog = authDialog(page, 'Sign In');
  await dialog.getByLabel('Email', { exact: true }).fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** The signed-in shell: the feed title and the avatar menu. */
export async function expectSignedInFeed(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Activity Feed' }).waitFor();
  await page.getByRole('button', { name: 'Account menu' }).waitFor();
}

export async function expectWelcomePage(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Welcome to Hoptrack' }).waitFor();
  await page.getByText('Like a fitness tracker, but for beer', { exact: true }).waitFor();
}

/**
 * Makes the next `method` call whose path matches `path` fail at the network
 * edge with `status` and a plain-text body (not the shared error JSON, so the
 * screen shows its own fallback text). Every other call goes through
 * untouched. For failure paths a healthy server never takes on demand.
 */
export async function failNextCall(page: Page, method: string, path: RegExp, status = 500): Promise<void> {
  let armed = true;
  await page.route(
    (url) => path.test(url.pathname),
    async (route) => {
      if (armed && route.request().method() === method) {
        armed = false;
        await route.fulfill({ status, contentType: 'text/plain', body: 'Injected failure' });
      } else {
        await route.fallback();
      }
    },
  );
}

/**
 * Waits for `text` as the inline error of the input labelled `label`: the
 * input is marked invalid and described (aria-describedby) by an element
 * with role="alert" that says exactly `text`.
 */
export async function expectFieldError(scope: Page | Locator, label: string, text: string): Promise<void> {
  const input = scope.getByLabel(label, { exact: true });
  const describedBy = () =>
    input.evaluate((element) =>
      (element.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => {
          const node = document.getElementById(id);
          return { text: node?.textContent ?? '', role: node?.getAttribute('role') ?? '' };
        }),
    );
  await expect.poll(describedBy).toContainEqual({ text, role: 'alert' });
  expect(await input.getAttribute('aria-invalid')).toBe('true');
}
