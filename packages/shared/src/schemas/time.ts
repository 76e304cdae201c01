import { z } from 'zod';

/** An ISO 8601 date-time (its own module: the market's schema needs it without common.ts's others). */
export const isoTime = z.iso.datetime();
