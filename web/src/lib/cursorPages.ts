import type { InfiniteData } from '@tanstack/react-query';
import { NEXT_CURSOR_HEADER } from '@hoptrack/proto/constants';

/** One page of a list and the cursor of the next one, null on the last page. */
export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * A page of a list whose next page's cursor comes in the `x-next-cursor`
 * header, from a list call's `withResponse` (`api.messaging.conversations.withResponse({ query: { cursor } })`).
 */
export async function cursorPage<T>(call: Promise<{ data: T[]; response: Response }>): Promise<CursorPage<T>> {
  const { data: items, response } = await call;
  return { items, nextCursor: response.headers.get(NEXT_CURSOR_HEADER) || null };
}

/** Every loaded item, each once, in the order the pages hold them (an item added meanwhile shifts the later pages). */
export function listItems<T extends { id: string }>(data: InfiniteData<CursorPage<T>> | undefined): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const page of data?.pages ?? []) {
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      out.push(item);
    }
  }
  return out;
}
