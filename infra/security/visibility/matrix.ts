import { AUTHOR_KINDS, expectedOutcome, SURFACES, VIEWERS_OF, type AuthorKind, type Surface, type ViewerKind } from './expected';

/** One cell of the matrix, expected against actual. */
export interface Cell {
  author: AuthorKind;
  viewer: ViewerKind;
  surface: Surface;
  expected: string;
  actual: string;
}

export const cellKey = (author: AuthorKind, viewer: ViewerKind, surface: Surface) => `${author} × ${viewer} × ${surface}`;

export function compare(actual: Map<string, string>): { cells: Cell[]; mismatches: Cell[] } {
  const cells: Cell[] = [];
  for (const author of AUTHOR_KINDS) {
    for (const viewer of VIEWERS_OF[author]) {
      for (const surface of SURFACES) {
        cells.push({ author, viewer, surface, expected: expectedOutcome(surface, author, viewer), actual: actual.get(cellKey(author, viewer, surface)) ?? 'not measured' });
      }
    }
  }
  return { cells, mismatches: cells.filter((c) => c.expected !== c.actual) };
}

const SHORT: Record<string, string> = {
  visible: 'V',
  hidden: 'H',
  restricted: 'R',
  withheld: 'W',
  'refused:403': '403',
  'refused:404': '404',
};

/** The matrix as text: a row per surface, a column per viewer, an author kind per group; a mismatch is `!actual`. */
export function grid(cells: Cell[]): string {
  const width = 5;
  const pad = (s: string) => s.padEnd(width).slice(0, width);
  const group = (author: AuthorKind) => `${author}: `;
  const header = `${''.padEnd(22)}${AUTHOR_KINDS.map((author) => `${group(author)}${VIEWERS_OF[author].map((v) => pad(v.slice(0, width))).join(' ')}`).join(' | ')}`;
  const rows = SURFACES.map((surface) => {
    const side = (author: AuthorKind) =>
      ''.padEnd(group(author).length) +
      VIEWERS_OF[author]
        .map((viewer) => {
          const cell = cells.find((c) => c.author === author && c.viewer === viewer && c.surface === surface);
          if (!cell) return pad('?');
          return pad(cell.actual === cell.expected ? (SHORT[cell.actual] ?? cell.actual) : `!${SHORT[cell.actual] ?? 'X'}`);
        })
        .join(' ');
    return `${surface.padEnd(22)}${AUTHOR_KINDS.map(side).join(' | ')}`;
  });
  return [header, ...rows, 'V visible, H hidden, R restricted (named, details withheld), W withheld (field empty), 403/404 refused; !x = mismatch'].join('\n');
}

export function describeMismatches(mismatches: Cell[]): string {
  return mismatches.map((c) => `  ${cellKey(c.author, c.viewer, c.surface)}: expected ${c.expected}, got ${c.actual}`).join('\n');
}
