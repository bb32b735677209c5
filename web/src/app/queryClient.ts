import { QueryClient } from '@tanstack/react-query';

/**
 * Data-fetching defaults of spec section 9: nothing refetches by itself,
 * data never goes stale, nothing is retried. Screens refresh explicitly
 * (invalidate after a mutation) instead. There is no default query fn: each
 * query calls its contract (src/api) itself.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
