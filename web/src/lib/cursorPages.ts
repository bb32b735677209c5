import type { InfiniteData } from '@tanstack/react-query';
import { NEXT_CURSOR_HEADER } from '@hoptrack/proto/constants';
import { apiResponse } from './api';

/** One page of a list and the cursor of the next one, null on the last page. */
export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** GET a page of a list whose next page's cursor comes in the `x-next-cursor` header. */
export async function cursorPage<T>(url: string, cursor: string | undefined): Promise<CursorPage<T>> {
  const target = cursor ? `${url}?cursor=${encodeURIComponent(cursor)}` : url;
  const res = await apiResponse('GET', target);
  const items = (await res.json()) as T[];
  return { items, nextCursor: res.headers.get(NEXT_CURSOR_HEADER) || null };
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
