import { existsSync, readFileSync } from 'node:fs';
import type { FeedSession } from '@hoptrack/proto';
import { eventually } from '@hoptrack/testing';
import { callApi, expectApi, logSessionViaApi, registerUser, waitForMessagingUser, waitForSocialUser, type RegisteredUser } from '@hoptrack/testing/api';
import { findPersonalData, formatHits, placesOf } from '@hoptrack/testing/erasure-search';
import { faultGate } from '@hoptrack/testing/faults';
import { startStack, type Stack } from '@hoptrack/testing/stack';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 38, item 3: erasure that wins every race. Dora starts a write of
 * every kind through the gateway — a session, a comment (with an
 * Idempotency-Key, whose kept answer names her as well), a like and a
 * reaction on Eli's session, a review, a direct message, a friend request, an
 * album and a photo in it — and each is held right after its token was
 * checked (the runtime's WRITE_FAULT_GATE_FILE, tests only). She deletes her
 * account; it answers once every service has erased her (the first pass).
 * Then the writes go on and commit, naming her again — the race, on demand.
 *
 * The control (in the suite): the writes that answered 2xx did commit after
 * the first pass, and their rows are there, in the services' databases, before
 * the second pass. Then auth sends the deletion again after the grace (10 s
 * here), every service erases once more, the streams are scrubbed after that
 * pass, and the search of every store (every Postgres database, Redis, every
 * stream, S3) finds nothing of her.
 */
const gate = faultGate();
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    serveWeb: false,
    // The grace long enough for the control to look before the second pass, on a busy machine.
    env: { GATEWAY_RATE_LIMIT_MAX: '100000', WRITE_FAULT_GATE_FILE: gate.path, ERASURE_RESWEEP_MS: '10000' },
  });
});
afterAll(async () => {
  gate.open();
  await stack?.stop();
  gate.remove();
});

const ERASURE_BOUND_MS = 120_000;
const held = () => (existsSync(`${gate.path}.held`) ? readFileSync(`${gate.path}.held`, 'utf8').split('\n').filter(Boolean).length : 0);

interface Write {
  kind: string;
  send(): Promise<Response>;
}

/** A write held at the gate: Dora's token, the header that asks for the hold, and an Idempotency-Key when given (its kept answer names her too). */
function heldWrite(user: RegisteredUser, method: string, path: string, body: { json: unknown } | { form: FormData }, key?: string): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${user.token}`, 'x-fault-hold': 'write', ...(key ? { 'idempotency-key': key } : {}) };
  if ('json' in body) headers['content-type'] = 'application/json';
  return fetch(`${stack.baseUrl}${path}`, { method, headers, body: 'json' in body ? JSON.stringify(body.json) : body.form });
}

describe('an account deleted while its writes are in flight', () => {
  it('erases what those writes committed after the first pass: nothing of the person is left in any store', async () => {
    const base = stack.baseUrl;
    const [dora, eli, fay] = await Promise.all([registerUser(base, 'dora'), registerUser(base, 'eli'), registerUser(base, 'fay')]);
    const session = (await logSessionViaApi(base, eli, { title: 'Held pints' })) as FeedSession;
    await waitForSocialUser(base, dora, fay);
    await waitForMessagingUser(base, dora, eli);
    await expect.poll(async () => (await callApi(base, dora.token, 'GET', `/api/sessions/${session.id}`)).status).toBe(200);
    const [bar] = (await expectApi(base, dora.token, 'GET', '/api/bars?limit=1')) as Array<{ id: string }>;
    if (!bar) throw new Error('no bar in the catalogue');
    const album = (await expectApi(base, dora.token, 'POST', '/api/albums', { name: 'Before the end' }, 201)) as { id: string };
    const jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#b5651d' } }).jpeg().toBuffer();
    const form = (fields: Record<string, string>, photo?: Buffer) => {
      const f = new FormData();
      for (const [name, value] of Object.entries(fields)) f.append(name, value);
      if (photo) f.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'held.jpg');
      return f;
    };

    const writes: Write[] = [
      { kind: 'session', send: () => heldWrite(dora, 'POST', '/api/sessions', { form: form({ title: 'Logged in flight' }) }) },
      { kind: 'comment', send: () => heldWrite(dora, 'POST', `/api/sessions/${session.id}/comments`, { json: { content: 'Written in flight' } }, 'dora-comment-in-flight') },
      { kind: 'like', send: () => heldWrite(dora, 'POST', `/api/sessions/${session.id}/like`, { json: {} }) },
      { kind: 'reaction', send: () => heldWrite(dora, 'POST', `/api/sessions/${session.id}/react`, { json: { emoji: '🍺' } }) },
      { kind: 'review', send: () => heldWrite(dora, 'POST', `/api/bars/${bar.id}/reviews`, { json: { rating: 5, reviewText: 'Reviewed in flight' } }) },
      { kind: 'message', send: () => heldWrite(dora, 'POST', '/api/messages', { json: { toUserId: eli.id, content: 'Sent in flight' } }) },
      { kind: 'friend request', send: () => heldWrite(dora, 'POST', '/api/friendships', { json: { friendId: fay.id } }) },
      { kind: 'album', send: () => heldWrite(dora, 'POST', '/api/albums', { json: { name: 'Made in flight' } }) },
      { kind: 'album photo', send: () => heldWrite(dora, 'POST', `/api/albums/${album.id}/photos`, { form: form({}, jpeg) }) },
    ];
    const before = held();
    const answers = writes.map((w) => w.send());
    await eventually(async () => held() - before === writes.length, 'every write held after its token check');

    const gone = await callApi(base, dora.token, 'DELETE', '/api/me', { password: dora.password, confirm: 'DELETE' });
    expect(gone.status).toBe(200);
    // Every service has erased her (the answer waits for it); now the writes go on.
    gate.open();
    const statuses = await Promise.all(answers.map(async (answer) => (await answer).status));
    const committed = writes.filter((_, i) => (statuses[i] ?? 0) >= 200 && (statuses[i] ?? 0) < 300).map((w) => w.kind);
    // The control: writes did commit after the first pass, and left rows naming her.
    const leftovers = await findPersonalData(stack, [dora.id], { stores: ['postgres'] });
    console.info(
      `erasure race: ${writes.map((w, i) => `${w.kind} ${statuses[i]}`).join(', ')}; committed after the first pass ${committed.length}; ` +
        `rows naming her before the second pass ${leftovers.length} in ${placesOf(leftovers).join(', ')}`,
    );
    expect(committed.length).toBeGreaterThanOrEqual(4);
    // Rows the writes made (not auth's erasure record, not events waiting in an outbox), in several services.
    const written = placesOf(leftovers.filter((hit) => !/\.(erasures|outbox)$/.test(hit.place)));
    expect(written.length, `rows the late writes left: ${written.join(', ')}`).toBeGreaterThanOrEqual(4);

    // The second pass, then the scrub: nothing of her anywhere.
    let hits = leftovers;
    const started = Date.now();
    await eventually(
      async () => {
        hits = await findPersonalData(stack, [dora.id, dora.email, dora.username]);
        return hits.length === 0;
      },
      'nothing of her left in any store',
      ERASURE_BOUND_MS,
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}\n${formatHits(hits)}`);
    });
    console.info(`erasure race: every store clean ${Date.now() - started} ms after the writes answered`);
    // Eli's session stays, without her comment, like and reaction.
    const kept = (await expectApi(base, eli.token, 'GET', `/api/sessions/${session.id}`)) as FeedSession;
    expect(kept).toMatchObject({ likeCount: 0, commentCount: 0 });
  });
});
