import { z } from 'zod';
import { CONTENT_TYPES, REGISTRATION_PLATFORMS, STREAMING_FREQUENCIES } from '../constants.ts';
import { walletSchema } from './common.ts';

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} is too long`);

/**
 * What the registration form submits (docs/product.md#registration-form). The wallet comes from the token,
 * the balance from the chain.
 */
export const registrationRequestSchema = z.object({
  name: requiredText('Name', 200),
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .pipe(z.email('Enter a valid email address').max(320)),
  platform: z.enum(REGISTRATION_PLATFORMS, { error: 'Choose a streaming platform' }).default('tiktok'),
  platform_username: requiredText('Platform username', 100),
  discord_username: z
    .string()
    .trim()
    .max(100, 'Discord username is too long')
    .optional()
    .transform((v) => (v ? v : undefined)),
  streaming_frequency: z.enum(STREAMING_FREQUENCIES, { error: 'Choose a streaming frequency' }),
  // A number, or a form field's decimal text; blank is refused as missing, never read as 0.
  follower_count: z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const text = v.trim();
      if (text === '') return undefined;
      return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : v;
    },
    z
      .number({
        error: (issue) =>
          issue.input === undefined ? 'Follower count is required' : 'Follower count must be a number',
      })
      .int('Follower count must be a whole number')
      .min(0, 'Follower count cannot be negative')
      .max(2_000_000_000, 'Follower count is too large'),
  ),
  content_type: z.enum(CONTENT_TYPES, { error: 'Choose a content type' }),
  project_interest: requiredText('Project interest', 5000),
});
export type RegistrationRequest = z.input<typeof registrationRequestSchema>;

export const registrationSchema = registrationRequestSchema.extend({
  wallet: walletSchema,
  /** The wallet's balance (whole tokens) at submit time, read by the server. */
  token_balance: z.number().nonnegative(),
  created_at: z.iso.datetime(),
});
export type Registration = z.infer<typeof registrationSchema>;

export const betaAccessResponseSchema = z.object({ hasAccess: z.boolean() });

/** The token's wallet balance as the server reads it from the chain. */
export const tokenBalanceResponseSchema = z.object({
  wallet: walletSchema,
  /** Whole tokens (display). */
  balance: z.number().nonnegative(),
  /** Base units (10^-6), as a decimal string. */
  units: z.string().regex(/^\d+$/),
});
