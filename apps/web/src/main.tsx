import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { bootstrap } from './app/bootstrap';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { configureApiClient } from './lib/api-client';
import './styles/global.css';

void bootstrap((tenant) => {
  const router = createAppRouter();
  configureApiClient({ navigate: (to) => void router.navigate(to) });
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing from index.html');
  createRoot(root).render(
    <AppProviders tenant={tenant}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
});
