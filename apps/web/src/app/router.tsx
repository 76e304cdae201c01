import { createBrowserRouter } from 'react-router';
import { CallbackPage } from '../features/callback/index.ts';
import { HomeRoute } from './routes/home.tsx';

export function createAppRouter() {
  return createBrowserRouter([
    // Router errors fall back to the app itself.
    { path: '/', element: <HomeRoute />, errorElement: <HomeRoute /> },
    { path: '/callback', element: <CallbackPage />, errorElement: <HomeRoute /> },
    { path: '*', element: <HomeRoute /> },
  ]);
}
