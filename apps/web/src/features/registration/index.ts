export { RegistrationPage } from './components/RegistrationPage.tsx';
export { REGISTRATION_MESSAGES } from './messages.ts';
