// The landing page (hero, calculator, tiers, market stats, connect). The app imports only from here.
export { LandingPage } from './LandingPage.tsx';
