// The routes, in react-router's declarative mode (BrowserRouter + Routes): the data router's loaders and
// actions are unused here and cost the landing page 49 KB of JavaScript (81 KB against 32 KB minified).
// /admin and /callback are chunks of their own, loaded only on those paths.
import { lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { Loaded } from './loaded.tsx';
import { HomeRoute } from './routes/home.tsx';

const AdminRoute = lazy(() => import('./routes/admin.tsx'));
const CallbackRoute = lazy(() =>
  import('../features/callback/index.ts').then((m) => ({ default: m.CallbackPage })),
);

export function AppRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route
          path="/admin"
          element={
            <Loaded>
              <AdminRoute />
            </Loaded>
          }
        />
        <Route
          path="/callback"
          element={
            <Loaded>
              <CallbackRoute />
            </Loaded>
          }
        />
        <Route path="*" element={<HomeRoute />} />
      </Routes>
    </BrowserRouter>
  );
}
