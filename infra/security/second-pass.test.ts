import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { allContracts, SERVICE_NAMES, type Challenge, type ChallengeInvitation, type ChallengeInvitations, type OtherUser } from '@hoptrack/proto';
import { createTokenService, DEV_SIGNING_KEY } from '@hoptrack/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectApi, makeFriends, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { storesOf } from '@hoptrack/testing/erasure-search';
import { startStack, type Stack } from '@hoptrack/testing/stack';
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
});

/** Ann and Bob become friends once, inside the first test that needs it (its waits are expect.poll's). */
let befriended: Promise<void> | undefined;
const friends = () => (befriended ??= makeFriends(stack.baseUrl, ann, bob));
afterAll(async () => {
  await stack?.stop();
});

/** One route of each service that reads a JSON body: the first contract of it that does. */
const jsonWriteOf = (service: string) => allContracts().find((c) => c.service === service && c.access.level !== 'internal' && c.body && !c.upload && c.method !== 'GET');

describe('identities the services cannot read', () => {
  it('a well-signed token whose user id is no UUID answers 401 at every service, never 500 (finding 16)', async () => {
    // The development key is what this stack's auth signs with (never accepted in production).
    const signer = await createTokenService({ keys: [DEV_SIGNING_KEY] });
    const forged = await signer.sign({ userId: "admin' OR 1=1", tokenVersion: 0 });
    const answers: Record<string, number> = {};
    for (const service of SERVICE_NAMES) {
      const read = allContracts().find((c) => c.service === service && c.access.level === 'signed-in' && c.method === 'GET' && !c.path.includes(':'));
      if (!read) continue;
      answers[`${service} ${read.path}`] = (await fetch(`${stack.baseUrl}${read.path}`, { headers: { authorization: `Bearer ${forged}` } })).status;
    }
    expect(Object.keys(answers).length).toBe(SERVICE_NAMES.length);
    expect(Object.entries(answers).filter(([, status]) => status !== 401)).toEqual([]);
  });
});

describe('bodies larger than a route takes', () => {
  it('answer 413 at the gateway for every service, before the service is involved (finding 16)', async () => {
    const big = JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) });
    const wrong: string[] = [];
    for (const service of SERVICE_NAMES) {
      const route = jsonWriteOf(service);
      if (!route) continue;
      const path = route.path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
      const res = await fetch(`${stack.baseUrl}${path}`, { method: route.method, headers: { 'content-type': 'application/json', authorization: `Bearer ${ann.token}` }, body: big });
      const body = (await res.json().catch(() => null)) as { message?: string } | null;
      if (res.status !== 413 || !/too large/i.test(body?.message ?? '')) wrong.push(`${service} ${route.method} ${path}: ${res.status} ${JSON.stringify(body)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answer 413 when the body comes without a length (chunked), never 502 (finding 16)', async () => {
    const wrong: string[] = [];
    for (const service of SERVICE_NAMES) {
      const route = jsonWriteOf(service);
      if (!route) continue;
      const path = route.path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
      const { status, body } = await chunkedPost(`${stack.baseUrl}${path}`, route.method, ann.token, 2 * 1024 * 1024);
      if (status !== 413) wrong.push(`${service} ${route.method} ${path}: ${status} ${body.slice(0, 200)}`);
    }
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
