import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request as httpRequest } from 'node:http';
import {
  allContracts,
  EXPORT_MESSAGES,
  EXPORT_READY_SUBJECT,
  type Challenge,
  type ChallengeInvitation,
  type ChallengeInvitations,
  type DataExport,
  type OtherUser,
} from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectApi, logSessionViaApi, makeFriends, registerUser, waitForMessagingUser, type RegisteredUser } from '@hoptrack/testing/api';
import { caughtMail } from '@hoptrack/testing/mail';
import { storesOf } from '@hoptrack/testing/erasure-search';
import { startStack, type Stack } from '@hoptrack/testing/stack';
import { makeStaff } from '@hoptrack/testing/staff';
import pg from 'pg';

/**
 * Issue 39, the attacker's second pass: the findings of a black-box test of a
 * fresh stack, each through the gateway as the tester met it, in one stack.
 * Each test failed before its fix (the commit says so). The text-input scan
 * (NUL at every route) is in injection.test.ts, the account flows' in
 * auth-abuse.test.ts.
 */
let stack: Stack;
let ann: RegisteredUser;
let bob: RegisteredUser;

beforeAll(async () => {
  stack = await startStack({ serveWeb: false, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  [ann, bob] = [await registerUser(stack.baseUrl, 'spann'), await registerUser(stack.baseUrl, 'spbob')];
  // An admin (issue 42): the staff routes read her bodies (and refuse them as too large) instead of refusing her first.
  await makeStaff(stack, ann, 'admin');
});

/** Ann and Bob become friends once, inside the first test that needs it (its waits are expect.poll's). */
let befriended: Promise<void> | undefined;
const friends = () => (befriended ??= makeFriends(stack.baseUrl, ann, bob));
afterAll(async () => {
  await stack?.stop();
});

/**
 * Every routed contract that reads a JSON body, and a path to call it at: the body-limit scans
 * cover each of them (uploads' limits are many megabytes; their refusal by length is the gateway's
 * own test, gateway/test/edge.test.ts). Malformed identities go to every authenticated route in
 * the revocation scan (revocation.test.ts).
 */
const jsonWrites = allContracts()
  .filter((c) => c.access.level !== 'internal' && c.body && !c.upload && c.method !== 'GET')
  .map((contract) => ({ contract, path: contract.path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000') }));

describe('bodies larger than a route takes, at every JSON route of the contract table', () => {
  it('answer 413 at the gateway, with a length or without one (chunked), never a reset or a 502 (finding 16)', { timeout: 300_000 }, async () => {
    expect(jsonWrites.length).toBeGreaterThan(25);
    const wrong: string[] = [];
    for (const { contract, path } of jsonWrites) {
      // Just past the route's own limit (its contract's bodyLimit).
      const size = contract.bodyLimit + 1024;
      const res = await fetch(`${stack.baseUrl}${path}`, {
        method: contract.method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ann.token}` },
        body: JSON.stringify({ padding: 'x'.repeat(size) }),
      });
      const body = (await res.json().catch(() => null)) as { message?: string } | null;
      if (res.status !== 413 || !/too large/i.test(body?.message ?? '')) wrong.push(`${contract.method} ${path} (length): ${res.status} ${JSON.stringify(body)}`);
      const chunked = await chunkedPost(`${stack.baseUrl}${path}`, contract.method, ann.token, size).catch((err: unknown) => ({ status: 0, body: String(err) }));
      if (chunked.status !== 413) wrong.push(`${contract.method} ${path} (chunked): ${chunked.status} ${chunked.body.slice(0, 200)}`);
    }
    console.info(`[figure] body limits: ${jsonWrites.length} JSON routes, each past its limit with a length and chunked; not 413: ${wrong.length}`);
    expect(wrong).toEqual([]);
  });
});

/** A JSON body of `size` bytes sent in chunks, with no Content-Length (as a streaming client sends it). */
function chunkedPost(url: string, method: string, token: string, size: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // A refused upload may close the connection while it is still being written: the answer counts.
    req.on('error', (err) => reject(err));
    req.write('{"padding":"');
    const chunk = 'x'.repeat(64 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end('"}');
    };
    pump();
  });
}

describe('inputs made canonical', () => {
  it('a time zone in any letter case is stored as its canonical name (finding 2)', async () => {
    const [challenge] = (await expectApi(stack.baseUrl, ann.token, 'GET', '/api/challenges?timeZone=eUrOpE/bErLiN')) as Challenge[];
    expect(challenge).toBeDefined();
    const joined = await callApi(stack.baseUrl, ann.token, 'POST', `/api/challenges/${challenge?.id}/join`, { timeZone: 'eUrOpE/bErLiN' });
    expect(joined.status).toBeLessThan(300);
    const url = storesOf(stack).databaseUrls.find((u) => new URL(u).pathname.slice(1).startsWith('hoptrack_challenges'));
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const rows = (await pool.query<{ time_zone: string }>('SELECT time_zone FROM user_challenges WHERE user_id = $1', [ann.id])).rows;
      expect(rows.map((r) => r.time_zone)).toEqual(['Europe/Berlin']);
    } finally {
      await pool.end();
    }
  });
});

describe('what a person shows, and to whom', () => {
  it("a private profile's online-status switch is not shown to strangers (finding 16)", async () => {
    await friends();
    const stranger = await registerUser(stack.baseUrl, 'spstranger');
    await expectApi(stack.baseUrl, bob.token, 'PUT', '/api/privacy', { isProfilePrivate: true }, 200);
    await expect.poll(async () => ((await expectApi(stack.baseUrl, stranger.token, 'GET', `/api/users/${bob.id}`)) as OtherUser).canViewDetails).toBe(false);
    expect(((await expectApi(stack.baseUrl, stranger.token, 'GET', `/api/users/${bob.id}`)) as OtherUser).showOnlineStatus).toBe(false);
    expect(((await expectApi(stack.baseUrl, ann.token, 'GET', `/api/users/${bob.id}`)) as OtherUser).showOnlineStatus).toBe(true);
    await expectApi(stack.baseUrl, bob.token, 'PUT', '/api/privacy', { isProfilePrivate: false }, 200);
  });

  it("a muted friend's challenge invitations are hidden like their notifications (finding 16)", async () => {
    await friends();
    // One Ann has not joined (the time-zone test joined her to the first).
    const challenge = ((await expectApi(stack.baseUrl, ann.token, 'GET', '/api/challenges?timeZone=UTC')) as Challenge[]).find((c) => !c.joined);
    const invitation = (await expectApi(stack.baseUrl, bob.token, 'POST', `/api/challenges/${challenge?.id}/invitations`, { friendId: ann.id }, 201)) as ChallengeInvitation;
    const received = async () => ((await expectApi(stack.baseUrl, ann.token, 'GET', '/api/challenge-invitations')) as ChallengeInvitations).received.map((i) => i.id);
    await expect.poll(received).toContain(invitation.id);
    await expectApi(stack.baseUrl, ann.token, 'POST', `/api/friends/${bob.id}/mute`, undefined, 204);
    expect(await received()).not.toContain(invitation.id);
  });
});

describe('the data export', () => {
  /** The zip of the export, downloaded as the web app does (the bearer call, then the signed link it redirects to), and each JSON part's text. */
  async function downloadParts(user: RegisteredUser, exportId: string): Promise<Record<string, string>> {
    const res = await fetch(`${stack.baseUrl}/api/me/export/${exportId}`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(res.status).toBe(200);
    const dir = await mkdtemp(path.join(tmpdir(), 'second-pass-export-'));
    try {
      const file = path.join(dir, 'export.zip');
      await writeFile(file, Buffer.from(await res.arrayBuffer()));
      const script = 'import json,sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); print(json.dumps({n: z.read(n).decode("utf-8") for n in z.namelist() if n.endswith(".json")}))';
      return JSON.parse(execFileSync('python3', ['-c', script, file], { encoding: 'utf8' })) as Record<string, string>;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  const readyExport = async (user: RegisteredUser): Promise<DataExport> => {
    const started = (await expectApi(stack.baseUrl, user.token, 'POST', '/api/me/export', undefined, 202)) as DataExport;
    await expect
      .poll(async () => ((await expectApi(stack.baseUrl, user.token, 'GET', '/api/me/exports')) as DataExport[]).find((e) => e.id === started.id)?.status, { timeout: 90_000 })
      .toBe('ready');
    return started;
  };

  it("follows the block rule: nothing the blocker did and not their current name in the blocked person's zip; what the person did stays (finding 8)", { timeout: 240_000 }, async () => {
    const [cara, dan] = [await registerUser(stack.baseUrl, 'spcara'), await registerUser(stack.baseUrl, 'spdan')];
    await makeFriends(stack.baseUrl, cara, dan);
    const fields = { title: 'Block rule night', description: '', beerCount: '2', duration: '60', avgAbv: '5', location: '', beerTypes: '[]', musicTrack: '' };
    const caraSession = await logSessionViaApi(stack.baseUrl, cara, fields);
    const danSession = await logSessionViaApi(stack.baseUrl, dan, fields);
    await expect.poll(async () => (await callApi(stack.baseUrl, dan.token, 'GET', `/api/sessions/${caraSession.id}`)).status).toBe(200);
    await expect.poll(async () => (await callApi(stack.baseUrl, cara.token, 'GET', `/api/sessions/${danSession.id}`)).status).toBe(200);
    // Dan's doings on Cara's things, and Cara's own on Dan's.
    await expectApi(stack.baseUrl, dan.token, 'POST', `/api/sessions/${caraSession.id}/like`, undefined);
    await expectApi(stack.baseUrl, dan.token, 'POST', `/api/sessions/${caraSession.id}/comments`, { content: 'DAN-SECRET-COMMENT' }, 201);
    await expectApi(stack.baseUrl, dan.token, 'POST', `/api/sessions/${caraSession.id}/react`, { emoji: '🍺' });
    await expectApi(stack.baseUrl, cara.token, 'POST', `/api/sessions/${danSession.id}/comments`, { content: 'CARA-OWN-COMMENT' }, 201);
    await waitForMessagingUser(stack.baseUrl, dan, cara);
    await waitForMessagingUser(stack.baseUrl, cara, dan);
    await expectApi(stack.baseUrl, dan.token, 'POST', '/api/messages', { toUserId: cara.id, content: 'DAN-SECRET-MESSAGE' }, 201);
    await expectApi(stack.baseUrl, cara.token, 'POST', '/api/messages', { toUserId: dan.id, content: 'CARA-OWN-MESSAGE' }, 201);
    const challenge = ((await expectApi(stack.baseUrl, dan.token, 'GET', '/api/challenges?timeZone=UTC')) as Challenge[])[0];
    const invitation = (await expectApi(stack.baseUrl, dan.token, 'POST', `/api/challenges/${challenge?.id}/invitations`, { friendId: cara.id }, 201)) as ChallengeInvitation;
    await expectApi(stack.baseUrl, dan.token, 'PATCH', '/api/me', { displayName: 'Dan Current Name' }, 200);

    await expectApi(stack.baseUrl, dan.token, 'POST', `/api/friends/${cara.id}/block`, undefined);
    // The block has reached the services whose parts name Dan (each keeps its own copy of the graph).
    await expect.poll(async () => (await callApi(stack.baseUrl, cara.token, 'GET', `/api/sessions/${danSession.id}`)).status).toBe(404);
    await expect.poll(async () => JSON.stringify((await callApi(stack.baseUrl, cara.token, 'GET', '/api/conversations')).body)).not.toContain(dan.id);
    await expect
      .poll(async () => ((await expectApi(stack.baseUrl, cara.token, 'GET', '/api/challenge-invitations')) as ChallengeInvitations).received.map((i) => i.id))
      .not.toContain(invitation.id);

    const done = await readyExport(cara);
    const parts = await downloadParts(cara, done.id);
    const all = Object.values(parts).join('\n');
    expect(Object.keys(parts).sort()).toContain('sessions.json');
    // Before: Dan's comment, message, like and current name were all in Cara's zip.
    for (const secret of ['DAN-SECRET-COMMENT', 'DAN-SECRET-MESSAGE', 'Dan Current Name', dan.username, invitation.id]) expect(all, secret).not.toContain(secret);
    const sessions = JSON.parse(parts['sessions.json'] ?? '{}') as { sessions: Array<{ id: string; likes: unknown[]; reactions: unknown[] }> };
    expect(sessions.sessions.find((s) => s.id === caraSession.id)).toMatchObject({ likes: [], reactions: [] });
    // What Cara did herself stays, naming Dan by his id only.
    for (const own of ['CARA-OWN-COMMENT', 'CARA-OWN-MESSAGE', dan.id]) expect(all, own).toContain(own);
  });

  it('is once a day: asking again answers 429 with when, and no second copy or mail is made (finding 9)', { timeout: 180_000 }, async () => {
    const eve = await registerUser(stack.baseUrl, 'speve');
    await readyExport(eve);
    const again = await callApi(stack.baseUrl, eve.token, 'POST', '/api/me/export');
    // Before: 202 each time, a full copy of every photo and a mail each.
    expect(again.status).toBe(429);
    expect((again.body as { message?: string }).message).toBe(EXPORT_MESSAGES.cooldown);
    const retry = await fetch(`${stack.baseUrl}/api/me/export`, { method: 'POST', headers: { authorization: `Bearer ${eve.token}` } });
    expect(retry.status).toBe(429);
    expect(Number(retry.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    expect(((await expectApi(stack.baseUrl, eve.token, 'GET', '/api/me/exports')) as DataExport[]).length).toBe(1);
    if (stack.mailUrl) {
      const mailUrl = stack.mailUrl;
      await expect.poll(async () => (await caughtMail(mailUrl, eve.email)).filter((m) => m.subject === EXPORT_READY_SUBJECT).length).toBe(1);
    }
  });
});

describe('operator surfaces', () => {
  it("the gateway's metrics are never on its public port, only on its operator port (finding 14)", async () => {
    const pub = await fetch(`${stack.baseUrl}/metrics`);
    expect(pub.status).toBe(404);
    expect(await pub.text()).not.toContain('process_cpu_seconds_total');
    expect(await (await fetch(`${stack.gateway.metricsUrl}/metrics`)).text()).toContain('http_request_duration_seconds');
  });

  it('every process of a local stack listens on loopback only, as make dev runs them (finding 15)', () => {
    // Listening TCP sockets (state 0A) by port, from the kernel: 0100007F is 127.0.0.1, 00000000 any address.
    const listening = new Map<number, string>();
    for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n').slice(1)) {
        const [, local, , state] = line.trim().split(/\s+/);
        if (state !== '0A' || !local) continue;
        const [address = '', port = ''] = local.split(':');
        listening.set(Number.parseInt(port, 16), address);
      }
    }
    const ports = [stack.gateway.port, Number(new URL(stack.gateway.metricsUrl).port), ...Object.values(stack.instances).flat().map((proc) => proc.port)];
    const open = ports.filter((port) => listening.has(port) && !/^0100007F$|^0000000000000000FFFF00000100007F$|^00000000000000000000000001000000$/.test(listening.get(port) ?? ''));
    expect(ports.filter((port) => listening.has(port)).length, 'the ports were found listening').toBe(ports.length);
    expect(open.map((port) => `${port} on ${listening.get(port)}`)).toEqual([]);
  });
});
