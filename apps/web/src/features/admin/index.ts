// The admin console (route /admin, loaded on demand): for admins only, as the API decides.
export { AdminConsole } from './AdminConsole.tsx';
export { ADMIN_MESSAGES } from './messages.ts';
