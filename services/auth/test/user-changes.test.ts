import { publishEvent, readEvents } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestAuth, type TestAuth } from './support';

/**
 * Issue 38, item 8: a people read model that missed events past the streams'
 * age asks auth for what changed since it was last caught up
 * (user.changes.requested.v1). Auth announces again every account changed
 * since — and none older — and every deletion its ledger recorded since, as
 * user.deleted.v1; an account whose deletion failed is announced as it is.
 */
let auth: TestAuth;
beforeAll(async () => {
  auth = await startTestAuth({}, { consumers: ['userChanges'] });
});
afterAll(() => auth?.close());

const HOUR = 3600_000;

describe('user.changes.requested.v1', () => {
  it('announces the accounts changed and the deletions recorded since, and nothing older', async () => {
    const old = await auth.register();
    const oldGone = await auth.register();
    await auth.app.inject({ method: 'DELETE', url: '/api/me', headers: bearer(oldGone.token), payload: { password: oldGone.body.password, confirm: 'DELETE' } });
    auth.clock.advance(2 * HOUR);
    const since = auth.clock.now();
    const changed = await auth.register();
    await auth.app.inject({ method: 'PATCH', url: '/api/me', headers: bearer(changed.token), payload: { bio: 'Lagers in the sun' } });
    const gone = await auth.register();
    const deleted = await auth.app.inject({ method: 'DELETE', url: '/api/me', headers: bearer(gone.token), payload: { password: gone.body.password, confirm: 'DELETE' } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await auth.relay.drain();

    const count = async (type: 'user.updated.v1' | 'user.deleted.v1', id: string) =>
      (await readEvents(auth.bus, 'USERS', type)).filter((e) => ('id' in e.data ? e.data.id : (e.data as { userId: string }).userId) === id).length;
    const before = {
      changed: await count('user.updated.v1', changed.userId),
      old: await count('user.updated.v1', old.userId),
      gone: await count('user.deleted.v1', gone.userId),
      oldGone: await count('user.deleted.v1', oldGone.userId),
    };

    await publishEvent(auth.bus, 'user.changes.requested.v1', { since: since.toISOString(), consumer: 'sessions-people' });
    await expect.poll(async () => {
      await auth.relay.drain();
      return { changed: await count('user.updated.v1', changed.userId), gone: await count('user.deleted.v1', gone.userId) };
    }).toEqual({ changed: before.changed + 1, gone: before.gone + 1 });
    // The re-announced snapshot is the account as it is now, with its version.
    const latest = (await readEvents(auth.bus, 'USERS', 'user.updated.v1')).filter((e) => e.data.id === changed.userId).at(-1);
    expect(latest?.data).toMatchObject({ bio: 'Lagers in the sun', version: expect.any(Number) });
    // Older than `since`: not announced again.
    expect(await count('user.updated.v1', old.userId)).toBe(before.old);
    expect(await count('user.deleted.v1', oldGone.userId)).toBe(before.oldGone);
    expect(auth.logs.some((l) => l.msg === 'accounts announced again for a read model that missed events' && l.updated === 1 && Number(l.deleted) >= 1)).toBe(true);
  });
});
