import { PRODUCT } from '@strm/shared';

// The Beta Registration screen's words (docs/product.md#beta-registration).
export const REGISTRATION_MESSAGES = {
  title: 'Beta Registration',
  intro: `Join the ${PRODUCT} Mining Platform beta program and start earning rewards for your content creation.`,
  submit: 'Submit Registration',
  submitting: 'Submitting...',
  disconnect: 'Disconnect Wallet',
  registeredTitle: 'Already Registered',
  registeredBody:
    'Your registration has been received and is under review. Selected participants will be contacted.',
  registeredThanks: 'Thank you for being a loyal member of our community!',
  balanceLabel: 'Your token balance',
} as const;
