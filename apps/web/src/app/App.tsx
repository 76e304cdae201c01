import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { AuthRoot } from '../features/auth/index.ts';
import { AppProvider } from './provider.tsx';
import { createAppRouter } from './router.tsx';

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <AppProvider>
      <AuthRoot>
        <RouterProvider router={router} />
      </AuthRoot>
    </AppProvider>
  );
}
