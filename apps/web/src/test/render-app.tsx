import { DEFAULT_TENANT_CONFIG } from '@gpu/shared/tenant-defaults';
import { render } from '@testing-library/react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers';

/** Renders `routes` at `path` inside the app's providers (default tenant); returns the router. */
export function renderApp(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProviders tenant={DEFAULT_TENANT_CONFIG}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}
