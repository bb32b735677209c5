import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The HTTP routes the services register, read from their source with regular
 * expressions (no service is started), so a route added tomorrow enters the
 * access-control matrix without anyone editing a list. What the scanner
 * understands:
 *
 * - `app.get('/api/x/:id', …)`, `scope.post(…)`, any receiver, any of the
 *   five verbs, the path a string or template literal;
 * - the path as an identifier: a `for (const url of ['…', '…'])` loop
 *   variable of the same file, or a `const NAME = '…'` of the file or of
 *   proto/src (LIVE_EVENTS_PATH);
 * - `${x}` inside a template literal, expanded from `for (const x of ['…'])`;
 * - helpers called with the verb first: `change('delete', '/api/friends/:id', …)`.
 *
 * What it cannot read is reported in `problems` (the test fails on any):
 * `.route({…})`, a registration whose path it cannot resolve, a plugin
 * registered under a `prefix`, and an '/api/…' literal of a routes file that
 * ended up in no route (a registration style the expressions missed).
 */

export const VERBS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type Verb = (typeof VERBS)[number];

export interface ScannedRoute {
  method: Verb;
  /** Fastify's path template, e.g. /api/sessions/:id/comments/:commentId or /api/media/files/*. */
  template: string;
  /** Where it is registered, relative to the repository root. */
  file: string;
  line: number;
}

export interface RouteScan {
  routes: ScannedRoute[];
  /** Registrations the scanner could not read: each one is a reason to fail. */
  problems: string[];
  /** The files read. */
  files: string[];
}

/** Path parameters of a template: `:name` segments and a trailing `*` wildcard. */
export function paramsOf(template: string): string[] {
  return [...template.matchAll(/:([A-Za-z_]\w*)|\*/g)].map((m) => m[1] ?? '*');
}

/** Fills a template's parameters (URL-encoding `:name` values; the wildcard is a key with slashes, kept as is). */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/:([A-Za-z_]\w*)|\*/g, (_whole, name: string | undefined) => {
    const value = values[name ?? '*'];
    if (value === undefined) throw new Error(`no value for ${name ?? '*'} in ${template}`);
    return name ? encodeURIComponent(value) : value;
  });
}

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'generated' || entry.name === 'node_modules' || entry.name === 'test') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listTs(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/**
 * Source with comments blanked out (so a commented-out route or an '/api' in a
 * doc comment counts for nothing), offsets and line breaks kept. Strings,
 * template literals and regular expression literals are skipped over, so a
 * '/api/media/files/*' is not taken for the start of a comment.
 */
export function stripComments(text: string): string {
  const out = text.split('');
  let i = 0;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k += 1) if (out[k] !== '\n') out[k] = ' ';
  };
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      i += 1;
      while (i < text.length && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
      i += 1;
    } else if (c === '/' && /[(,=:[!&|?{};]$|^$/.test(text.slice(0, i).trimEnd().slice(-1))) {
      // A regular expression literal: up to the closing slash outside a character class.
      i += 1;
      let inClass = false;
      while (i < text.length && text[i] !== '\n' && (inClass || text[i] !== '/')) {
        if (text[i] === '\\') i += 1;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i += 1;
      }
      i += 1;
    } else {
      i += 1;
    }
  }
  return out.join('');
}

/** String literals of the array of the last `for (const name of [...])` before `at`. */
function loopValues(text: string, name: string, at: number): string[] | undefined {
  const loops = [...text.slice(0, at).matchAll(new RegExp(`for\\s*\\(\\s*const\\s+${name}\\s+of\\s+\\[([^\\]]*)\\]`, 'g'))];
  const list = loops.at(-1)?.[1];
  if (list === undefined) return undefined;
  return [...list.matchAll(/'([^']*)'|"([^"]*)"/g)].map((m) => m[1] ?? m[2] ?? '');
}

/** `const NAME = '…'` string constants of a text. */
function constantsOf(text: string): Map<string, string> {
  return new Map([...text.matchAll(/\bconst\s+([A-Za-z_$][\w$]*)\s*(?::\s*string\s*)?=\s*(?:'([^']*)'|"([^"]*)")/g)].map((m) => [m[1] ?? '', m[2] ?? m[3] ?? '']));
}

/** Receivers that are routers (a Fastify instance or scope) rather than maps, caches or stores. */
const ROUTER_RECEIVERS = /^(app|scope|plain|instance|fastify|server|router|api)$/;

export function scanRoutes(repoRoot: string): RouteScan {
  const roots = readdirSync(path.join(repoRoot, 'services'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(repoRoot, 'services', entry.name, 'src'))
    .filter((dir) => {
      try {
        return readdirSync(dir).length > 0;
      } catch {
        return false;
      }
    });
  const files = roots.flatMap(listTs).sort();
  const protoConstants = new Map<string, string>();
  for (const file of listTs(path.join(repoRoot, 'proto/src'))) {
    for (const [name, value] of constantsOf(stripComments(readFileSync(file, 'utf8')))) protoConstants.set(name, value);
  }

  const routes: ScannedRoute[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const add = (method: string, template: string, file: string, line: number) => {
    const verb = method.toUpperCase();
    if (!(VERBS as readonly string[]).includes(verb)) {
      problems.push(`${file}:${line}: ${method} ${template}: a verb the matrix does not try`);
      return;
    }
    const key = `${verb} ${template}`;
    if (seen.has(key)) return;
    seen.add(key);
    routes.push({ method: verb as Verb, template, file, line });
  };

  for (const absolute of files) {
    const file = path.relative(repoRoot, absolute);
    const text = stripComments(readFileSync(absolute, 'utf8'));
    const constants = new Map([...protoConstants, ...constantsOf(text)]);
    const before = routes.length;

    // 1. receiver.verb(path, …)
    const direct = /\b([A-Za-z_$][\w$]*)\s*\.\s*(get|post|put|patch|delete|head|options|all)\s*\(\s*(?:'([^']*)'|"([^"]*)"|`([^`]*)`|([A-Za-z_$][\w$]*))\s*,/g;
    for (const m of text.matchAll(direct)) {
      const [, receiver = '', method = '', single, double, template, identifier] = m;
      const line = lineOf(text, m.index);
      const literal = single ?? double;
      if (literal !== undefined) {
        if (literal.startsWith('/')) add(method, literal, file, line);
        continue;
      }
      if (template !== undefined) {
        if (!template.startsWith('/')) continue;
        const holes = [...template.matchAll(/\$\{\s*([A-Za-z_$][\w$]*)\s*\}/g)].map((h) => h[1] ?? '');
        if (holes.length === 0) {
          add(method, template, file, line);
          continue;
        }
        if (holes.length > 1) {
          problems.push(`${file}:${line}: ${method} \`${template}\`: more than one \${…} in a route path`);
          continue;
        }
        const values = loopValues(text, holes[0] ?? '', m.index);
        if (!values) {
          problems.push(`${file}:${line}: ${method} \`${template}\`: cannot expand \${${holes[0]}}`);
          continue;
        }
        for (const value of values) add(method, template.replace(/\$\{[^}]*\}/, value), file, line);
        continue;
      }
      if (identifier === undefined || !ROUTER_RECEIVERS.test(receiver)) continue;
      const resolved = constants.has(identifier) ? [constants.get(identifier) ?? ''] : loopValues(text, identifier, m.index);
      if (!resolved) {
        problems.push(`${file}:${line}: ${receiver}.${method}(${identifier}, …): cannot resolve the path`);
        continue;
      }
      for (const value of resolved) add(method, value, file, line);
    }

    // 2. helper('verb', '/api/…', …)
    for (const m of text.matchAll(/\b[A-Za-z_$][\w$]*\s*\(\s*'(get|post|put|patch|delete)'\s*,\s*'(\/[^']*)'/g)) {
      add(m[1] ?? '', m[2] ?? '', file, lineOf(text, m.index));
    }

    // 3. What the expressions do not read.
    for (const m of text.matchAll(/\.\s*route\s*\(\s*\{/g)) problems.push(`${file}:${lineOf(text, m.index)}: .route({…}) registration: teach route-scan.ts to read it`);
    for (const m of text.matchAll(/\.\s*register\s*\([^;]*?\bprefix\s*:\s*([^,}\s]+)/g)) {
      const value = m[1] ?? '';
      const literal = /^['"`](.*)['"`]$/.exec(value)?.[1] ?? constants.get(value);
      if (literal === undefined || literal.startsWith('/api')) {
        problems.push(`${file}:${lineOf(text, m.index)}: a plugin registered under prefix ${value}: its routes' paths are not what the file says`);
      }
    }
    // Every '/api/…' literal of a file that registers routes must have become (part of) a route.
    if (routes.length > before || file.includes(`${path.sep}routes${path.sep}`)) {
      const mine = routes.slice(before).map((r) => r.template);
      for (const m of text.matchAll(/(['"`])(\/api\/[^'"`]*)\1/g)) {
        const literal = (m[2] ?? '').replace(/\$\{[^}]*\}/g, '');
        if (!mine.some((template) => template.startsWith(literal))) {
          problems.push(`${file}:${lineOf(text, m.index)}: '${m[2]}' is in no scanned route: a registration style route-scan.ts does not read?`);
        }
      }
    }
  }
  return { routes, problems, files: files.map((f) => path.relative(repoRoot, f)) };
}
