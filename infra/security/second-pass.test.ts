import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { allContracts, type Challenge, type ChallengeInvitation, type ChallengeInvitations, type OtherUser } from '@hoptrack/proto';
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
