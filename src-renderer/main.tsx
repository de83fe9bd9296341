// First: configures zod before any schema parses.
import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { ErrorBoundary } from './app/ErrorBoundary';
import { createClient } from './ipc/client';
import { subscribe } from './ipc/subscriptions';
import { bootstrap } from './ipc/actions';
import { showToast } from './stores/store';
import './styles.css';

const client = createClient();
subscribe(client);
bootstrap().catch((error: unknown) => showToast(`Could not load the workspace: ${(error as Error).message}`));

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ErrorBoundary>
        <App />
      </ErrorBoundary>
    </StrictMode>,
  );
}
