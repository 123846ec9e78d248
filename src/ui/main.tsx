import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Root } from './Root';
import { loadRuntimeConfig } from './runtimeConfig';
import { registerServiceWorker } from './serviceWorker';

const container = document.getElementById('root');
if (!container) throw new Error('#root missing from index.html');
const root = createRoot(container);

loadRuntimeConfig()
  .then((config) => {
    document.title = config.appTitle;
    root.render(
      <StrictMode>
        <Root config={config} />
      </StrictMode>,
    );
    void registerServiceWorker();
  })
  .catch((error: unknown) => {
    console.error(error);
    container.textContent = 'We were unable to connect.';
  });
