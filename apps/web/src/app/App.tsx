import { AuthRoot } from '../features/auth/index.ts';
import { AppProvider } from './provider.tsx';
import { AppRouter } from './router.tsx';

export function App() {
  return (
    <AppProvider>
      <AuthRoot>
        <AppRouter />
      </AuthRoot>
    </AppProvider>
  );
}
