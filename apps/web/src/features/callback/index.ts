// The OAuth callback page the platforms redirect to. The app imports only from here.
export { CallbackPage } from './CallbackPage.tsx';
