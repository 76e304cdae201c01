import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiRequestError, InvalidAnswerError } from '../../lib/api.ts';
import { shouldRetryTiers, tiersErrorMessage, tiersRetryDelay } from './useTiers.ts';

describe('tier fetch retry policy', () => {
  const serverError = new ApiRequestError(500, 'internal', 'boom');
  const notFound = new ApiRequestError(404, 'not_found', 'nope');
  const invalid = new InvalidAnswerError('/tiers', z.array(z.number()).safeParse('not an array').error);

  it('makes at most three attempts', () => {
    expect(shouldRetryTiers(0, serverError)).toBe(true);
    expect(shouldRetryTiers(1, serverError)).toBe(true);
    expect(shouldRetryTiers(2, serverError)).toBe(false);
  });

  it('stops at once on 404 with "Tiers not found"', () => {
    expect(shouldRetryTiers(0, notFound)).toBe(false);
    expect(tiersErrorMessage(notFound)).toBe('Tiers not found');
    expect(tiersErrorMessage(serverError)).toBe('Failed to fetch tiers after multiple attempts');
  });

  it('doubles a 1 s delay on errors and waits a flat 1 s after an invalid list', () => {
    expect([0, 1, 2].map((a) => tiersRetryDelay(a, serverError))).toEqual([1000, 2000, 4000]);
    expect([0, 1, 2].map((a) => tiersRetryDelay(a, invalid))).toEqual([1000, 1000, 1000]);
  });
});
