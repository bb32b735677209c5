/**
 * Makes user text literal inside a LIKE/ILIKE pattern. Prisma's `contains`
 * and case-insensitive `equals` become ILIKE and pass `%` and `_` through,
 * so without this a search for '%' matches everything.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
