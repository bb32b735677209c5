import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A local SMTP catcher for `make dev` and the tests: the services mail to it
 * as they would to a real relay (SMTP_URL), nothing leaves the machine, and
 * what arrived is readable over HTTP: `GET /messages` (JSON, newest last,
 * `?to=` filters by recipient), `DELETE /messages`, and `GET /` (a page a
 * developer can open to follow a reset or unsubscribe link).
 */
export interface CaughtMail {
  id: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  headers: Record<string, string>;
  receivedAt: string;
}

export interface MailCatcher {
  smtpUrl: string;
  httpUrl: string;
  messages: CaughtMail[];
  close(): Promise<void>;
}

export async function startMailCatcher(options: { smtpPort?: number; httpPort?: number; host?: string } = {}): Promise<MailCatcher> {
  const host = options.host ?? '127.0.0.1';
  const messages: CaughtMail[] = [];
  let nextId = 1;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const headers: Record<string, string> = {};
          for (const line of parsed.headerLines) headers[line.key] = line.line.slice(line.line.indexOf(':') + 1).trim();
          messages.push({
            id: nextId++,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : null,
            headers,
            receivedAt: new Date().toISOString(),
          });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  smtp.listen(options.smtpPort ?? 0, host);
  await once(smtp.server, 'listening');
  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://catcher');
    if (url.pathname === '/messages' && req.method === 'DELETE') {
      messages.length = 0;
      res.writeHead(204).end();
    } else if (url.pathname === '/messages') {
      const to = url.searchParams.get('to');
      const list = to ? messages.filter((m) => m.to.includes(to)) : messages;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list));
    } else if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(messages));
    } else {
      res.writeHead(404).end();
    }
  });
  http.listen(options.httpPort ?? 0, host);
  await once(http, 'listening');
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const httpPort = (http.address() as AddressInfo).port;
  return {
    smtpUrl: `smtp://${host}:${smtpPort}`,
    httpUrl: `http://${host}:${httpPort}`,
    messages,
    async close() {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The messages a catcher (at its HTTP address) holds for `to`. */
export async function caughtMail(httpUrl: string, to?: string): Promise<CaughtMail[]> {
  const res = await fetch(`${httpUrl}/messages${to ? `?to=${encodeURIComponent(to)}` : ''}`);
  return (await res.json()) as CaughtMail[];
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
const linkify = (text: string) => escape(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);

function page(messages: CaughtMail[]): string {
  const items = [...messages]
    .reverse()
    .map((m) => `<article><h2>${escape(m.subject)}</h2><p>To ${escape(m.to.join(', '))} · ${escape(m.receivedAt)}</p><pre>${linkify(m.text)}</pre></article>`)
    .join('');
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Hoptrack mail (local)</title><h1>Mail sent by the local stack</h1>${items || '<p>Nothing yet.</p>'}</html>`;
}
