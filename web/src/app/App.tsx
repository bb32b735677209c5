import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { AuthProvider } from '../lib/auth';
import { ToastProvider } from '../lib/toast';
import { TooltipProvider } from '../lib/tooltip';
import { AppRoutes } from './router';

/** Providers, outermost first: server cache (created by main.tsx, which may fill it first) → toasts → auth (uses both) → tooltips (one timing for all) → routes. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <AuthProvider>
          <TooltipProvider>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </TooltipProvider>
        </AuthProvider>
      </ToastProvider>
    </QueryClientProvider>
  );
}
