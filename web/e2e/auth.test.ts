import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  authDialog,
  dismissToast,
  expectFieldError,
  expectSignedInFeed,
  expectToast,
  expectWelcomePage,
  fillRegisterForm,
  logInViaDialog,
  notifications,
  registerViaApi,
  storedToken,
  uniqueUser,
  useE2eStack,
} from './support';

/**
 * Registration, login/logout and the password-reset flow, end to end: the
 * built web app served by the gateway, the real auth service behind it.
 */
const stack = useE2eStack();
const open = (path: string, options?: { narrow?: boolean }) => stack.open(path, options);

/** Every field's message at once (one submit shows them all). */
async function expectFieldErrors(dialog: Locator, messages: Record<string, string>): Promise<void> {
  for (const [label, message] of Object.entries(messages)) await expectFieldError(dialog, label, message);
}

describe('registration dialog', () => {
  it('checks the form in order, one toast at a time, then reports server rejections', async () => {
    const taken = uniqueUser('taken');
    await registerViaApi(stack.baseUrl, taken);
    const { page } = await open('/');

    await page.getByRole('button', { name: 'Get Started Free' }).click();
    const dialog = authDialog(page, 'Create Account');
    const submit = dialog.getByRole('button', { name: 'Create Account' });
    // Sign-up says the address is private before anything is typed (issue 40).
    const privateLine = 'Your e-mail address is private: nobody but you sees it, unless you let your friends see it in Privacy Settings.';
    expect(await dialog.getByLabel('Email', { exact: true }).getAttribute('aria-describedby')).toBe(await dialog.getByText(privateLine).getAttribute('id'));

    await submit.click();
    await expectToast(page, 'Missing Information', 'Please fill in all fields');

    const user = uniqueUser('check');
    await dismissToast(page);
    await fillRegisterForm(dialog, { ...user, displayName: '   ' });
    await submit.click();
    await expectToast(page, 'Missing Information', 'Please fill in all fields');

    await fillRegisterForm(dialog, { ...user, confirmPassword: 'something-else' });
    await submit.click();
    await expectToast(page, 'Password Mismatch', 'Passwords do not match');

    await fillRegisterForm(dialog, { ...user, password: 'abc12', confirmPassword: 'abc12' });
    await submit.click();
    await expectToast(page, 'Password Too Short', 'Password must be at least 6 characters long');

    await dismissToast(page);
    await fillRegisterForm(dialog, { ...user, username: taken.username });
    await submit.click();
    await expectToast(page, 'Registration Failed', 'Username already taken');
    await expectFieldError(dialog, 'Username', 'Username already taken');

    // Nothing above signed anybody in.
    await dialog.waitFor();
    expect(await storedToken(page)).toBeNull();

    // An address that has an account registers like any other (issue 40, item 14): nobody learns it is taken.
    await dismissToast(page);
    await fillRegisterForm(dialog, { ...user, email: taken.email });
    await submit.click();
    await expectToast(page, 'Account Created!');
    await expectSignedInFeed(page);
  });

  it.each([
    ['desktop', false],
    ['phone', true],
  ])('shows the rules before typing and every problem at its field at once, keeping what was typed (%s)', async (_screen, narrow) => {
    const { page } = await open('/', { narrow });
    await page.getByRole('button', { name: 'Get Started Free' }).click();
    const dialog = authDialog(page, 'Create Account');
    // The rules, before anything is typed, each tied to its field.
    for (const [label, rule] of [
      ['Username', '3–30 characters: letters, numbers, dots, dashes and underscores. Shown on your profile.'],
      ['Display Name', 'Up to 50 characters.'],
      ['Password', 'At least 6 characters.'],
    ] as const) {
      const ruleId = await dialog.getByText(rule, { exact: true }).getAttribute('id');
      expect(ruleId).toBeTruthy();
      expect((await dialog.getByLabel(label, { exact: true }).getAttribute('aria-describedby'))?.split(' ')).toContain(ruleId);
    }
    for (const label of ['Email', 'Username', 'Display Name', 'Password', 'Confirm Password']) {
      expect(await dialog.getByLabel(label, { exact: true }).getAttribute('aria-invalid')).toBeNull();
    }

    // Empty: every field says so at once; the toast is the spec's.
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await expectToast(page, 'Missing Information', 'Please fill in all fields');
    await expectFieldErrors(dialog, {
      Email: 'Email is required',
      Username: 'Username is required',
      'Display Name': 'Display name is required',
      Password: 'Password is required',
      'Confirm Password': 'Please type the password again',
    });
    await dismissToast(page);

    // Three problems in one submit, each at its field; the other fields are clean and nothing typed is lost.
    await fillRegisterForm(dialog, { email: 'not-an-email', username: 'has space', displayName: 'Hops', password: 'abc12', confirmPassword: 'abc13' });
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await expectToast(page, 'Password Mismatch', 'Passwords do not match');
    await expectFieldErrors(dialog, {
      Email: 'Please enter a valid email address',
      Username: 'Username may only contain letters, numbers, dots, dashes and underscores',
      Password: 'Password must be at least 6 characters long',
      'Confirm Password': 'Passwords do not match',
    });
    expect(await dialog.getByLabel('Display Name', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    expect(await dialog.getByLabel('Email', { exact: true }).inputValue()).toBe('not-an-email');
    expect(await dialog.getByLabel('Username', { exact: true }).inputValue()).toBe('has space');
    expect(await dialog.getByLabel('Display Name', { exact: true }).inputValue()).toBe('Hops');
    expect(await storedToken(page)).toBeNull();
  });

  it('navigates login ↔ register ↔ forgot and resets to login when closed', async () => {
    const { page } = await open('/');
    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
    const login = authDialog(page, 'Sign In');
    await login.getByRole('button', { name: 'Sign up' }).click();
    await authDialog(page, 'Create Account').getByRole('button', { name: 'Sign in' }).click();
    await login.getByRole('button', { name: 'Forgot your password?' }).click();
    const forgot = authDialog(page, 'Forgot Password');
    await forgot.getByRole('button', { name: 'Send Reset Link' }).click();
    await expectToast(page, 'Missing Email', 'Please enter your email address');
    await forgot.getByRole('button', { name: 'Back to Sign In' }).click();
    await login.getByRole('button', { name: 'Sign up' }).click();

    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('banner').getByRole('button', { name: 'Get Started' }).click();
    await authDialog(page, 'Create Account').waitFor();
    await authDialog(page, 'Create Account').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
    await login.getByLabel('Email', { exact: true }).waitFor();
  });
});

describe('account lifecycle', () => {
  it('registers into the signed-in shell, logs out, and logs back in', async () => {
    const user = uniqueUser('life');
    const { page } = await open('/');

    // Register: lands in the signed-in shell.
    await page.getByRole('button', { name: 'Get Started Free' }).click();
    const register = authDialog(page, 'Create Account');
    await fillRegisterForm(register, user);
    await register.getByRole('button', { name: 'Create Account' }).click();
    await expectToast(page, 'Account Created!');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expectSignedInFeed(page);
    expect(await storedToken(page)).toMatch(/\S{20,}/);
    expect(await page.getByRole('button', { name: 'Account menu' }).textContent()).toBe('L');
    const feedLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Feed' });
    expect(await feedLink.getAttribute('aria-current')).toBe('page');

    // A reload keeps the session: the token is read back and /api/me answers.
    const me = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/me');
    await page.reload();
    expect((await me).status()).toBe(200);
    await expectSignedInFeed(page);

    // Log out: welcome page, token gone, signed-in screens locked again.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expectWelcomePage(page);
    expect(await storedToken(page)).toBeNull();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'detached' });
    await page.goto('/privacy');
    await page.getByRole('heading', { name: 'Sign in to continue' }).waitFor();

    // Wrong password, then the right one.
    await page.getByRole('main').getByRole('button', { name: 'Sign In', exact: true }).click();
    await logInViaDialog(page, user.email, 'not-my-password');
    await expectToast(page, 'Login Failed', 'Invalid email or password');
    expect(await storedToken(page)).toBeNull();

    await logInViaDialog(page, user.email, user.password);
    await expectToast(page, 'Welcome back!');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // Signing in on a locked screen shows that screen.
    await page.getByRole('switch', { name: 'Private Profile' }).waitFor();
    await page.goto('/');
    await expectSignedInFeed(page);
  });

  it('drops a stale token silently and shows the signed-out UI', async () => {
    const { page } = await open('/');
    await page.evaluate(() => window.localStorage.setItem('token', 'stale.token.value'));
    const me = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/me');
    await page.reload();
    expect((await me).status()).toBe(401);
    await expectWelcomePage(page);
    await expect.poll(() => storedToken(page)).toBeNull();
    expect(await notifications(page).locator('.toast').count()).toBe(0);
  });

  it('paints a splash before any script; with the API down it says so and retries, and stays signed in when the API returns', async () => {
    const { token } = await registerViaApi(stack.baseUrl, uniqueUser('offline'));
    const { page } = await open('/');
    await page.evaluate((value) => window.localStorage.setItem('token', value), token);
    // The app's script is held: what shows meanwhile is index.html's own splash, not a blank page.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    // The API is down: every call gets no answer.
    const down = (route: { abort: (code: string) => Promise<void> }) => route.abort('connectionrefused');
    await page.route('**/api/**', down);
    await page.goto('/', { waitUntil: 'commit' });
    const splash = page.locator('[data-splash]');
    await splash.getByText('Hoptrack', { exact: true }).waitFor();
    release();
    await splash.waitFor({ state: 'detached' });
    await page.getByRole('status').getByText("Can't reach Hoptrack — retrying", { exact: true }).waitFor();
    expect(await page.getByRole('heading', { name: 'Welcome to Hoptrack' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Get Started Free' }).count()).toBe(0);
    expect(await storedToken(page)).toBe(token);
    // Back: the next try signs in, and the feed loads.
    await page.unroute('**/api/**', down);
    await expectSignedInFeed(page);
    await page.getByRole('region', { name: 'No activities yet', exact: true }).waitFor();
    expect(await storedToken(page)).toBe(token);
  });
});

describe('password reset', () => {
  it('forgot (dialog) → dev reset link → new password → log in with it', async () => {
    const user = uniqueUser('reset');
    await registerViaApi(stack.baseUrl, user);
    const { page } = await open('/');

    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
    await authDialog(page, 'Sign In').getByRole('button', { name: 'Forgot your password?' }).click();
    const forgot = authDialog(page, 'Forgot Password');
    await forgot.getByLabel('Email', { exact: true }).fill(user.email);
    await forgot.getByRole('button', { name: 'Send Reset Link' }).click();
    await expectToast(page, 'Reset Link Generated');
    const sent = authDialog(page, 'Check Your Email');
    const resetLink = sent.getByRole('link', { name: 'Open reset link' });
    const href = await resetLink.getAttribute('href');
    expect(href).toMatch(/\/reset-password\?token=\S+$/);
    expect(new URL(href ?? '').origin).toBe(new URL(stack.baseUrl).origin);
    await resetLink.click();

    await page.getByRole('heading', { level: 1, name: 'Set a new password' }).waitFor();
    await page.getByText(`For ${user.email}`).waitFor();
    const newPassword = page.getByLabel('New password', { exact: true });
    const confirm = page.getByLabel('Confirm password', { exact: true });
    const submit = page.getByRole('button', { name: 'Reset Password' });

    await newPassword.fill('short');
    await confirm.fill('short');
    await submit.click();
    await page.getByText('Password must be at least 6 characters long', { exact: true }).waitFor();

    await newPassword.fill('brand-new-secret');
    await confirm.fill('brand-new-secrex');
    await submit.click();
    await page.getByText("Passwords don't match", { exact: true }).waitFor();
    expect(await page.getByText('Password must be at least 6 characters long').count()).toBe(0);

    await confirm.fill('brand-new-secret');
    await submit.click();
    await page.getByRole('heading', { level: 1, name: 'Password reset successful!' }).waitFor();

    // The old password no longer works; the new one does.
    await page.getByRole('main').getByRole('button', { name: 'Sign In', exact: true }).click();
    await logInViaDialog(page, user.email, user.password);
    await expectToast(page, 'Login Failed', 'Invalid email or password');
    await logInViaDialog(page, user.email, 'brand-new-secret');
    await expectToast(page, 'Welcome back!');
    await page.goto('/');
    await expectSignedInFeed(page);

    // A used link is spent.
    await page.goto(href ?? '');
    await page.getByRole('heading', { level: 1, name: 'Link expired' }).waitFor();
  });

  it('forgot-password page: inline email check, then the confirmation with the dev link', async () => {
    const user = uniqueUser('page');
    await registerViaApi(stack.baseUrl, user);
    const { page } = await open('/forgot-password');
    const email = page.getByLabel('Email', { exact: true });
    const submit = page.getByRole('button', { name: 'Send Reset Link' });

    await submit.click();
    await page.getByText('Please enter a valid email address', { exact: true }).waitFor();
    await email.fill('not-an-email');
    await submit.click();
    await page.getByText('Please enter a valid email address', { exact: true }).waitFor();

    await email.fill(user.email);
    await submit.click();
    await page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();
    const href = await page.getByRole('link', { name: 'Open reset link' }).getAttribute('href');
    expect(href).toMatch(/\/reset-password\?token=\S+$/);
  });

  it('shows the invalid-link, verifying and expired views', async () => {
    const { page } = await open('/reset-password');
    await page.getByRole('heading', { level: 1, name: 'Invalid reset link' }).waitFor();
    await page.getByRole('link', { name: 'Request a new link' }).click();
    await page.waitForURL('**/forgot-password');

    // Hold the verification answer back until the verifying state has been seen (not for a
    // guessed time: on a busy machine the page may take longer than any guess to show it).
    let release: () => void = () => undefined;
    const seen = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/verify-reset-token/**', async (route) => {
      await seen;
      await route.continue();
    });
    await page.goto('/reset-password?token=definitely-not-a-real-token');
    await page.getByText('Verifying reset link...', { exact: true }).waitFor();
    release();
    await page.getByRole('heading', { level: 1, name: 'Link expired' }).waitFor();
    await page.getByText('This password reset link has expired or is invalid.', { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe('/forgot-password');
  });
});
