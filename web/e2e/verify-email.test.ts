import { VERIFICATION_MAIL_SUBJECT } from '@hoptrack/proto';
import { caughtMail } from '@hoptrack/testing/mail';
import { describe, expect, inject, it } from 'vitest';
import { authDialog, expectSignedInFeed, expectToast, fillRegisterForm, registerUser, uniqueUser, useE2eStack } from './support';

/**
 * E-mail verification (issue 24, item 1) in the browser: registering mails a
 * link (read from the stack's SMTP catcher), the banner asks to verify until
 * the link is opened, and then it is gone.
 */
const stack = useE2eStack();
const mailUrl = inject('e2eMailUrl');

describe('e-mail verification', () => {
  it('register → mail in the catcher → the link verifies in another tab → the banner is gone in both', async () => {
    const user = uniqueUser('verify');
    const { page, context } = await stack.open('/');
    await page.getByRole('button', { name: 'Get Started Free' }).click();
    const register = authDialog(page, 'Create Account');
    await fillRegisterForm(register, user);
    await register.getByRole('button', { name: 'Create Account' }).click();
    await expectToast(page, 'Account Created!');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expectSignedInFeed(page);

    const banner = page.getByRole('region', { name: 'E-mail verification' });
    await banner.getByText('Please verify your e-mail address', { exact: false }).waitFor();

    let link = '';
    await expect
      .poll(async () => {
        const mail = (await caughtMail(mailUrl, user.email)).find((m) => m.subject === VERIFICATION_MAIL_SUBJECT);
        link = /https?:\/\/\S+\/verify-email\?token=\S+/.exec(mail?.text ?? '')?.[0] ?? '';
        return link;
      })
      .not.toBe('');
    const target = new URL(link);

    // The same browser (signed in) follows the link in a second tab, as from a mail client (issue 40, item 9):
    // the banner goes in the first tab too, without a reload.
    const mailTab = await context.newPage();
    await mailTab.goto(`${stack.baseUrl}${target.pathname}${target.search}`);
    await mailTab.getByRole('heading', { level: 1, name: 'E-mail verified!' }).waitFor();
    await banner.waitFor({ state: 'detached' });
    expect(await page.getByRole('heading', { level: 1, name: 'E-mail verified!' }).count()).toBe(0);

    // Used once: opening it again says it no longer works, and that there is nothing left to verify.
    await mailTab.reload();
    await mailTab.getByRole('heading', { level: 1, name: 'Link expired' }).waitFor();
    await mailTab.getByText('Your e-mail address is already verified.').waitFor();
    expect(await mailTab.getByRole('region', { name: 'E-mail verification' }).count()).toBe(0);
    await mailTab.close();

    // A link without its token says so.
    await page.goto(`${stack.baseUrl}/verify-email`);
    await page.getByRole('heading', { level: 1, name: 'Invalid verification link' }).waitFor();
  });

  it('an expired link offers "Send a new link" on the page itself, signed in and unverified', async () => {
    const user = await registerUser(stack.baseUrl, 'expired');
    const page = await stack.openAs(user, '/verify-email?token=no-such-token');
    await page.getByRole('heading', { level: 1, name: 'Link expired' }).waitFor();
    expect(await page.getByText('Use the Resend button on the banner', { exact: false }).count()).toBe(0);
    const sent = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/auth/resend-verification');
    await page.getByRole('button', { name: 'Send a new link', exact: true }).click();
    expect((await sent).status()).toBe(200);
    await page.getByText('A new verification e-mail has been sent.').first().waitFor();
    await page.getByRole('link', { name: 'Go to Hoptrack' }).waitFor();
  });
});
