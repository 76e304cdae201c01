import { createBrowserRouter } from 'react-router';
import { CallbackPage } from '../features/callback/index.ts';
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
    { path: '/callback', element: <CallbackPage />, errorElement: <HomeRoute /> },
    { path: '*', element: <HomeRoute /> },
  ]);
}
