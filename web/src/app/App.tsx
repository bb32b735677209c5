import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { AuthProvider } from '../lib/auth';
import { ToastProvider } from '../lib/toast';
import { createQueryClient } from './queryClient';
import { createAppRouter } from './router';

/** Providers, outermost first: server cache → toasts → auth (uses both) → routes. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </ToastProvider>
    </QueryClientProvider>
  );
}
