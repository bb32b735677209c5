import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { primeFirstScreen } from './app/firstScreen';
import { createQueryClient } from './app/queryClient';
import './styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
// The first render shows the signed-in screen's data when it is already on its way (app/firstScreen.ts).
void primeFirstScreen(queryClient).then(() => {
  const app = createRoot(root);
  flushSync(() =>
    app.render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    ),
  );
});
