import { describe, expect, it } from 'vitest';
import { isUserRejection } from './wallet.ts';

describe('isUserRejection', () => {
  it('recognises a declined request (code 4001), also wrapped by the wallet adapter', () => {
    expect(isUserRejection({ code: 4001, message: 'User rejected the request.' })).toBe(true);
    expect(isUserRejection({ name: 'WalletSignMessageError', message: '', error: { code: 4001 } })).toBe(
      true,
    );
    expect(isUserRejection(new Error('network down'))).toBe(false);
    expect(isUserRejection(null)).toBe(false);
  });
});
