import { VERIFICATION_MAIL_SUBJECT } from '@hoptrack/proto';
import { caughtMail } from '@hoptrack/testing/mail';
import { describe, expect, inject, it } from 'vitest';
import { authDialog, expectSignedInFeed, expectToast, fillRegisterForm, uniqueUser, useE2eStack } from './support';

/**
 * E-mail verification (issue 24, item 1) in the browser: registering mails a
 * link (read from the stack's SMTP catcher), the banner asks to verify until
 * the link is opened, and then it is gone.
 */
const stack = useE2eStack();
const mailUrl = inject('e2eMailUrl');

describe('e-mail verification', () => {
  it('register → mail in the catcher → the link verifies → the banner is gone', async () => {
    const user = uniqueUser('verify');
    const { page } = await stack.open('/');
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

    // The same browser (signed in) follows the link.
    await page.goto(`${stack.baseUrl}${target.pathname}${target.search}`);
    await page.getByRole('heading', { level: 1, name: 'E-mail verified!' }).waitFor();
    await banner.waitFor({ state: 'detached' });

    // Used once: opening it again says it no longer works, and a reload keeps the banner away.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Link expired' }).waitFor();
    expect(await banner.count()).toBe(0);

    // A link without its token says so.
    await page.goto(`${stack.baseUrl}/verify-email`);
    await page.getByRole('heading', { level: 1, name: 'Invalid verification link' }).waitFor();
  });
});
