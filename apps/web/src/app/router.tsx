import { createBrowserRouter } from 'react-router';
import { CallbackPage } from '../features/callback/CallbackPage.tsx';
import { LandingPage } from '../features/landing/LandingPage.tsx';

export function createAppRouter() {
  return createBrowserRouter([
    // Router errors fall back to the app itself.
    { path: '/', element: <LandingPage />, errorElement: <LandingPage /> },
    { path: '/callback', element: <CallbackPage />, errorElement: <LandingPage /> },
    { path: '*', element: <LandingPage /> },
  ]);
}
