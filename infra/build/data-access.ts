import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Where each service touches its database (issue 37, item 8): every read and
 * write goes through the service's repositories (`src/repositories/`), in one
 * style — Prisma's model API for one table, `sql` fragments (queryRows,
 * executeSql, a named statement) for the rest — and never as a string with
 * positional parameters (`$queryRawUnsafe`).
 *
 * Read with the TypeScript parser, not regular expressions, so a call split
 * over lines, or commented out, counts as what it is. The model names come
 * from the service's Prisma schema, so `db.user.findMany(…)` is a database
 * call and `req.user.id` is not.
 */

export interface DataAccess {
  file: string;
  line: number;
  /** What was called: `photo.findMany`, `$queryRawUnsafe`, `queryRows`. */
  call: string;
  kind: 'model' | 'fragment' | 'raw' | 'unsafe';
}

/** Prisma's operations on a model delegate. */
const MODEL_OPERATIONS = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'create',
  'createMany',
  'createManyAndReturn',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'upsert',
  'delete',
  'deleteMany',
  'count',
  'aggregate',
  'groupBy',
]);
const RAW = new Set(['$queryRaw', '$executeRaw']);
const UNSAFE = new Set(['$queryRawUnsafe', '$executeRawUnsafe']);
/** The runtime's fragment executors, and sessions' named statements. */
const FRAGMENT = new Set(['queryRows', 'executeSql']);

/** Model delegates as Prisma names them on the client: `model PhotoAlbum` → `photoAlbum`. */
export function modelDelegates(schema: string): Set<string> {
  return new Set([...schema.matchAll(/^model\s+(\w+)\s*\{/gm)].map((m) => m[1]!.charAt(0).toLowerCase() + m[1]!.slice(1)));
}

function nameOf(node: ts.Expression): string | undefined {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  return undefined;
}

/** The database calls in one file's source. */
export function findDataAccess(file: string, source: string, models: Set<string>): DataAccess[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: DataAccess[] = [];
  const at = (node: ts.Node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const visit = (node: ts.Node) => {
    // A tagged template ($queryRaw`…`) and a call ($queryRawUnsafe('…')) alike.
    const callee = ts.isCallExpression(node) ? node.expression : ts.isTaggedTemplateExpression(node) ? node.tag : undefined;
    if (callee) {
      const name = nameOf(callee);
      if (name && UNSAFE.has(name)) found.push({ file, line: at(node), call: name, kind: 'unsafe' });
      else if (name && RAW.has(name)) found.push({ file, line: at(node), call: name, kind: 'raw' });
      else if (name && FRAGMENT.has(name)) found.push({ file, line: at(node), call: name, kind: 'fragment' });
      else if (name === 'query' && ts.isPropertyAccessExpression(callee) && nameOf(callee.expression) === 'prepared') {
        found.push({ file, line: at(node), call: 'prepared.query', kind: 'fragment' });
      } else if (name && MODEL_OPERATIONS.has(name) && ts.isPropertyAccessExpression(callee)) {
        const model = nameOf(callee.expression);
        if (model && models.has(model)) found.push({ file, line: at(node), call: `${model}.${name}`, kind: 'model' });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function sourceFiles(dir: string, root: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' || entry.name === 'node_modules' ? [] : sourceFiles(relative, root);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

/** Every database call in a service's `src/`, with the file relative to the repository's root. */
export function serviceDataAccess(root: string, service: string): DataAccess[] {
  const models = modelDelegates(readFileSync(path.join(root, 'services', service, 'prisma', 'schema.prisma'), 'utf8'));
  return sourceFiles(path.join('services', service, 'src'), root).flatMap((file) =>
    findDataAccess(file, readFileSync(path.join(root, file), 'utf8'), models),
  );
}

/** Where a service's database calls may be: its repositories. */
export const isRepository = (file: string): boolean => file.split(path.sep).includes('repositories');
