import { describe, expect, it } from 'vitest';
import {
  CLIENT_MESSAGES,
  MiningClientError,
  PROGRAM_ERRORS,
  isNetworkCongestion,
  programErrorOf,
  userMessageOf,
} from './errors.ts';

describe('program error mapping', () => {
  it('takes codes 6000-6006 from the program’s IDL, in the product’s order and words, then its own', () => {
    expect(Object.entries(PROGRAM_ERRORS).map(([code, e]) => [Number(code), e.name, e.message])).toEqual([
      [6000, 'Unauthorized', 'Unauthorized access.'],
      [6001, 'AlreadyActive', 'Already active miner.'],
      [6002, 'NotActive', 'Not an active miner.'],
      [6003, 'InvalidTier', 'Invalid tier specified.'],
      [6004, 'MaxTiersReached', 'Maximum number of tiers reached.'],
      [6005, 'InvalidHoldingsAccount', 'Invalid holdings account owner.'],
      [6006, 'Overflow', 'Arithmetic overflow occurred.'],
      [6007, 'DepositChanged', "The tier's deposit has changed."],
    ]);
  });

  it('reads the code from an AnchorError, a preflight failure message, or its logs', () => {
    expect(programErrorOf({ error: { errorCode: { number: 6001 } } })?.name).toBe('AlreadyActive');
    expect(
      programErrorOf(
        new Error(
          'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1772',
        ),
      )?.message,
    ).toBe('Not an active miner.');
    const withLogs = Object.assign(new Error('Simulation failed'), {
      logs: [
        'Program log: AnchorError occurred. Error Code: InvalidTier. Error Number: 6003. Error Message: Invalid tier specified.',
      ],
    });
    expect(programErrorOf(withLogs)?.code).toBe(6003);
    expect(programErrorOf(new Error('{"err":{"InstructionError":[1,{"Custom":6005}]}}'))?.code).toBe(6005);
  });

  it('does not mistake other programs’ errors for ours', () => {
    expect(programErrorOf(new Error('custom program error: 0x1'))).toBeNull();
    expect(programErrorOf(new Error('boom'))).toBeNull();
  });
});

describe('network congestion', () => {
  it.each([
    'Blockhash not found',
    'network congestion',
    '429 Too Many Requests: rate limit',
    'Request timeout',
  ])('detects "%s"', (message) => {
    expect(isNetworkCongestion(new Error(message))).toBe(true);
    expect(userMessageOf(new Error(message), 'Failed to activate tier')).toBe(
      'The Solana network is currently experiencing high traffic. Please try again in a few minutes.',
    );
  });

  it('leaves other failures to the caller’s default', () => {
    expect(isNetworkCongestion(new Error('insufficient funds'))).toBe(false);
    expect(userMessageOf(new Error('insufficient funds'), 'Failed to activate tier')).toBe(
      'Failed to activate tier',
    );
  });

  it('shows client-side refusals as they are', () => {
    expect(userMessageOf(new MiningClientError(CLIENT_MESSAGES.tierNotFound), 'x')).toBe('Tier not found');
  });
});
