import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from '../lib/api';

/**
 * Data-fetching defaults of spec section 9: nothing refetches by itself,
 * data never goes stale, nothing is retried. Screens refresh explicitly
 * (invalidate after a mutation) instead.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
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
