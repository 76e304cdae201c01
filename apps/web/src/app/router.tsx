import { createBrowserRouter } from 'react-router';
import { HomeRoute } from './routes/home.tsx';

export function createAppRouter() {
  return createBrowserRouter([
    // Router errors fall back to the app itself.
    { path: '/', element: <HomeRoute />, errorElement: <HomeRoute /> },
    // The admin console is its own chunk, loaded only on /admin.
    {
      path: '/admin',
      lazy: async () => ({ Component: (await import('./routes/admin.tsx')).default }),
      errorElement: <HomeRoute />,
    },
    // The OAuth popup's page is a chunk of its own: landing visitors never download it.
    {
      path: '/callback',
      lazy: async () => ({ Component: (await import('../features/callback/index.ts')).CallbackPage }),
      errorElement: <HomeRoute />,
    },
    { path: '*', element: <HomeRoute /> },
  ]);
}
