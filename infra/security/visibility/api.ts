import type { AuthResponse } from '@hoptrack/proto';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/**
 * The few API steps the visibility matrix needs, through the gateway, with
 * no browser types (web/e2e/support.ts needs the DOM library, which infra's
 * tsconfig does not load).
 */
export interface Account {
  id: string;
  token: string;
  username: string;
  email: string;
  displayName: string;
}

export interface Answer {
  status: number;
  /** The raw body: the matrix scans it for leaked markers. */
  text: string;
  body: unknown;
}

/** Short and unique per run: usernames are at most 30 characters. */
export const RUN = randomBytes(3).toString('hex');

export class Api {
  constructor(readonly baseUrl: string) {}

  async call(token: string | null, method: string, path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? (JSON.parse(text) as unknown) : null;
    } catch {
      parsed = null;
    }
    return { status: res.status, text, body: parsed };
  }

  /** The same call, which must answer `status` (2xx when not given). */
  async must(token: string, method: string, path: string, body?: unknown, status?: number): Promise<unknown> {
    const answer = await this.call(token, method, path, body);
    const ok = status === undefined ? answer.status >= 200 && answer.status < 300 : answer.status === status;
    if (!ok) throw new Error(`${method} ${path} answered ${answer.status} (wanted ${status ?? '2xx'}): ${answer.text.slice(0, 300)}`);
    return answer.body;
  }

  async register(username: string, displayName: string): Promise<Account> {
    const email = `vm-${username.toLowerCase()}@example.com`;
    const res = await fetch(`${this.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, username, displayName, password: 'hoppy-secret-1' }),
    });
    if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${await res.text()}`);
    const { token, user } = (await res.json()) as AuthResponse;
    return { id: user.id, token, username, email, displayName };
  }

  /** POST multipart: text fields and files under their field names. */
  async multipart(token: string, path: string, fields: Record<string, string>, files: Array<{ field: string; name: string; type: string; data: Buffer }>): Promise<Answer> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    for (const file of files) form.append(file.field, new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
    const res = await fetch(`${this.baseUrl}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
    const text = await res.text();
    return { status: res.status, text, body: text ? (JSON.parse(text) as unknown) : null };
  }

  /** GET a file URL the API handed out (a path on the gateway); status and content type. */
  async fetchFile(url: string): Promise<{ status: number; contentType: string; bytes: number }> {
    const res = await fetch(new URL(url, this.baseUrl));
    const data = await res.arrayBuffer();
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', bytes: data.byteLength };
  }
}

/** A small JPEG, really encoded (the media service decodes every upload). */
export function jpeg(background: string): Promise<Buffer> {
  return sharp({ create: { width: 48, height: 32, channels: 3, background } }).jpeg().toBuffer();
}

/** Polls `check` until it returns true; false after `timeoutMs` (the caller decides whether that fails). */
export async function until(check: () => Promise<boolean>, timeoutMs: number, intervalMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Like `until`, but a timeout is an error naming what was awaited. */
export async function settle(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  if (!(await until(check, timeoutMs))) throw new Error(`${what}: not reached within ${timeoutMs} ms`);
}
