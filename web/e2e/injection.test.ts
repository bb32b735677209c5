import { describe, expect, it } from 'vitest';
import { expectApi, logSessionViaApi, registerUser, signInWithToken, useE2eStack } from './support';

/**
 * Issue 9, item 20, in the browser: markup typed into text fields is shown
 * as text and never runs (React escapes it; the gateway's CSP would block
 * an inline script anyway, and a CSP violation would be a console error,
 * which fails every browser test).
 */
const stack = useE2eStack();

describe('script payloads in what people write', () => {
  it('shows them as text on the feed and runs nothing', async () => {
    const alice = await registerUser(stack.baseUrl, 'xss');
    const title = '<img src=x onerror="window.__pwned=true">';
    const comment = '<script>window.__pwned = true</script>';
    const session = await logSessionViaApi(stack.baseUrl, alice, { title, description: '<b>not bold</b>' });
    await expectApi(stack.baseUrl, alice.token, 'POST', `/api/sessions/${session.id}/comments`, { content: comment });

    const { page } = await stack.open('/');
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await signInWithToken(page, alice.token, '/');
    await page.getByText(title, { exact: true }).first().waitFor();
    await page.getByText('<b>not bold</b>', { exact: true }).first().waitFor();
    expect(await page.locator('article img[src="x"]').count()).toBe(0);
    expect(await page.locator('b', { hasText: 'not bold' }).count()).toBe(0);

    await page.getByRole('button', { name: /comment/i }).first().click();
    await page.getByText(comment, { exact: true }).first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
    expect(dialogs).toBe(0);
  });
});
