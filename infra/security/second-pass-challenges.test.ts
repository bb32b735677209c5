import { CHALLENGE_KINDS, type Challenge, type CompletedChallenge, type FeedSession, type Notification } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectApi, logSessionViaApi, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { startStack, type Stack } from '@hoptrack/testing/stack';

/**
 * Issue 39, the attacker's second pass, finding 10: challenges. Joining two
 * dates in far-apart zones let one session complete both days' challenges,
 * and a completion stayed after the session that earned it was deleted.
 * Through the gateway, as the tester met it; each test failed before its fix.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ serveWeb: false, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
});
afterAll(async () => {
  await stack?.stop();
});

/** One session satisfies it: a track makes a music session (the test stack publishes every kind every day). */
const MUSIC = CHALLENGE_KINDS.music_session.title;
const TRACK = { id: 'local-7', name: 'Tubthumping', artist: 'Chumbawamba', album: 'Tubthumper', duration: 278, service: 'manual' };

const logMusicSession = (user: RegisteredUser): Promise<FeedSession> =>
  logSessionViaApi(stack.baseUrl, user, { title: `Tunes ${user.username}`, beerCount: '1', duration: '30', musicTrack: JSON.stringify(TRACK) });

/** The music challenge of the zone's today. */
async function musicOf(user: RegisteredUser, timeZone: string): Promise<Challenge> {
  const today = (await expectApi(stack.baseUrl, user.token, 'GET', `/api/challenges?timeZone=${encodeURIComponent(timeZone)}`)) as Challenge[];
  const found = today.find((c) => c.title === MUSIC);
  if (!found) throw new Error(`no music challenge today in ${timeZone}`);
  return found;
}

const challenge = async (user: RegisteredUser, id: string) => (await expectApi(stack.baseUrl, user.token, 'GET', `/api/challenges/${id}`)) as Challenge;

describe('one instant counts for one day of a person', () => {
  it('a session counts for at most one of two dates joined in zones 25 hours apart (finding 10)', async () => {
    const traveller = await registerUser(stack.baseUrl, 'sptraveller');
    // UTC+14 and UTC-11: at any instant their "today"s are different dates, and both are running.
    const [east, west] = [await musicOf(traveller, 'Pacific/Kiritimati'), await musicOf(traveller, 'Pacific/Pago_Pago')];
    expect(east.date).not.toBe(west.date);
    const joins = [
      await callApi(stack.baseUrl, traveller.token, 'POST', `/api/challenges/${east.id}/join`, { timeZone: 'Pacific/Kiritimati' }),
      await callApi(stack.baseUrl, traveller.token, 'POST', `/api/challenges/${west.id}/join`, { timeZone: 'Pacific/Pago_Pago' }),
    ];
    expect(joins[0]?.status).toBe(200);
    await logMusicSession(traveller);

    // One session's recompute updates every challenge it moves in one transaction: once one shows completed, all it completed do.
    const completed = async () => (await Promise.all([east, west].map(async (c) => (await challenge(traveller, c.id)).isCompleted))).filter(Boolean).length;
    await expect.poll(completed).toBeGreaterThan(0);
    const count = await completed();
    console.info(`[figure] two-zone trick: joins answered ${joins.map((j) => j.status).join(' and ')}; challenges one session completed: ${count} of 2`);
    expect(count).toBe(1);
  });
});

describe('a completion follows its evidence', () => {
  it("deleting the session that completed a challenge takes the completion, the profile's badge and the notification back (finding 10)", async () => {
    const person = await registerUser(stack.baseUrl, 'spdeleter');
    const music = await musicOf(person, 'UTC');
    await expectApi(stack.baseUrl, person.token, 'POST', `/api/challenges/${music.id}/join`, { timeZone: 'UTC' });
    const session = await logMusicSession(person);

    const badges = async () => ((await expectApi(stack.baseUrl, person.token, 'GET', `/api/users/${person.id}/challenges`)) as CompletedChallenge[]).map((c) => c.id);
    const told = async () =>
      ((await expectApi(stack.baseUrl, person.token, 'GET', '/api/notifications')) as Notification[]).filter((n) => n.kind === 'challenge.completed').map((n) => n.target?.id);
    await expect.poll(async () => (await challenge(person, music.id)).isCompleted).toBe(true);
    expect(await badges()).toEqual([music.id]);
    await expect.poll(told).toEqual([music.id]);

    await expectApi(stack.baseUrl, person.token, 'DELETE', `/api/sessions/${session.id}`);
    await expect.poll(async () => (await challenge(person, music.id)).isCompleted).toBe(false);
    expect(await challenge(person, music.id)).toMatchObject({ progress: 0, completedAt: null });
    expect(await badges()).toEqual([]);
    await expect.poll(told).toEqual([]);
  });
});
