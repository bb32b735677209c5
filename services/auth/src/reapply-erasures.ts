import { runAuthCommand } from './command';

/**
 * The last step of `make restore` (issue 38, item 7): every account the
 * erasure ledger names that the restored data holds again is erased again —
 * the same erasure as its deletion (the row, and user.deleted.v1 through the
 * outbox to every service, whose restored data then forgets the person).
 * Runs with the restored databases and streams in place, before the services
 * start; it publishes what it erased and leaves. Prints the count.
 *
 *   node services/auth/dist/reapply-erasures.js
 */
const PAGE = 500;

await runAuthCommand('auth-reapply-erasures', async ({ app: { accounts }, connections, logger }) => {
  let erased = 0;
  // Page by page, in id order: the ledger's size is the number of deletions ever, never read at once.
  for (let after: string | null = null; ; ) {
    const ids = await connections.ledger.page(after, PAGE);
    for (const userId of ids) if (await accounts.eraseRestored(userId, 'restore')) erased += 1;
    if (ids.length < PAGE) break;
    after = ids.at(-1) ?? null;
  }
  logger.info({ erased }, 'erasures re-applied');
  process.stdout.write(`${JSON.stringify({ erased })}\n`);
});
