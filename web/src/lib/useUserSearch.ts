import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { socialApi, userSearchKey } from './socialApi';
import { useDebouncedValue } from './useDebouncedValue';
import { useErrorToast } from './useErrorToast';

/** Typing pauses this long before a search is sent. */
export const SEARCH_DEBOUNCE_MS = 250;

export type UserSearch = ReturnType<typeof useUserSearch>;

/**
 * User search (GET /api/users/search?q=) once the trimmed text has at least
 * `minLength` characters, sent when typing pauses. While a newer text waits or
 * loads, the previous results stay (marked stale); before the first results
 * arrive it is loading. A failure toasts 'Search failed'.
 */
export function useUserSearch(text: string, minLength: number) {
  const trimmed = text.trim();
  const query = useDebouncedValue(trimmed, SEARCH_DEBOUNCE_MS);
  const active = trimmed.length >= minLength;
  const enabled = active && query.length >= minLength;
  const search = useQuery({
    queryKey: userSearchKey(query),
    queryFn: () => socialApi.searchUsers(query),
    enabled,
    placeholderData: keepPreviousData,
  });
  useErrorToast(search.error, () => ({ title: 'Search failed', description: 'Could not search for users. Please try again.' }));
  return {
    /** The text is long enough to search: the results area shows. */
    active,
    /** The text last searched for. */
    query,
    results: enabled ? search.data : undefined,
    isLoading: active && (!enabled || search.isPending),
    isStale: search.isPlaceholderData || query !== trimmed,
    isError: enabled && search.isError,
    retry: () => void search.refetch(),
  };
}
