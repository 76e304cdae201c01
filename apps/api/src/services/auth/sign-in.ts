// Sign-In-With-Solana: GET /nonce hands out a single-use nonce and the exact message to sign; POST
// /authenticate rebuilds that message from what the server stored, verifies the ed25519 signature and
// consumes the nonce with one conditional update, so a nonce signs in at most once.
import { createHash, randomBytes } from 'node:crypto';
import { createSignInMessageText } from '@solana/wallet-standard-util';
import { type AuthenticateRequest, authenticateRequestSchema, PRODUCT } from '@strm/shared';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import type { AppDeps } from '../../deps.ts';
import { DomainError, validationMessage } from '../../errors.ts';
import { issueAuthToken } from './tokens.ts';

export const NONCE_TTL_MS = 5 * 60_000;
/** Refused signatures remembered at most (the oldest are forgotten first). */
const REFUSED_MAX = 10_000;
export const SIGN_IN_STATEMENT = `Sign in to the ${PRODUCT} Mining Platform.`;

type SignInDeps = Pick<AppDeps, 'config' | 'prisma' | 'clock' | 'rpc' | 'localChainInfo'>;

/** CAIP-2 style chain id of the cluster the API talks to, as wallets show it. */
export function signInChainId(deps: Pick<AppDeps, 'rpc' | 'localChainInfo'>): string {
  if (deps.localChainInfo) return 'solana:localnet';
  const host = new URL(deps.rpc.rpcUrl).hostname;
  if (host.includes('devnet')) return 'solana:devnet';
  if (host.includes('testnet')) return 'solana:testnet';
  if (host === '127.0.0.1' || host === 'localhost') return 'solana:localnet';
  return 'solana:mainnet';
}

function decodePublicKey(text: string): Uint8Array {
  try {
    const bytes = bs58.decode(text);
    if (bytes.length === 32) return bytes;
  } catch {
    // reported below
  }
  throw new DomainError('invalid_public_key', 'Invalid public key');
}

export function signInMessage(
  deps: SignInDeps,
  fields: { address: string; nonce: string; issuedAt: Date; expiresAt: Date },
): string {
  return createSignInMessageText({
    domain: deps.config.signInDomain,
    address: fields.address,
    statement: SIGN_IN_STATEMENT,
    uri: deps.config.signInUri,
    version: '1',
    chainId: signInChainId(deps),
    nonce: fields.nonce,
    issuedAt: fields.issuedAt.toISOString(),
    expirationTime: fields.expiresAt.toISOString(),
  });
}

/** A new nonce for `publicKey` and the message to sign; expired nonces are purged on the way. */
export async function createNonce(deps: SignInDeps, publicKey: string) {
  decodePublicKey(publicKey);
  const issuedAt = deps.clock.now();
  const expiresAt = new Date(issuedAt.getTime() + NONCE_TTL_MS);
  const nonce = randomBytes(16).toString('hex');
  await deps.prisma.authNonce.deleteMany({ where: { expiresAt: { lt: issuedAt } } });
  await deps.prisma.authNonce.create({
    data: { nonce, domain: deps.config.signInDomain, issuedAt, expiresAt },
  });
  return {
    nonce,
    message: signInMessage(deps, { address: publicKey, nonce, issuedAt, expiresAt }),
    expiresAt: expiresAt.toISOString(),
  };
}

/**
 * Sign-in requests whose signature failed verification, remembered for a nonce's lifetime: the same request
 * again (a replay, a retrying script) is refused at once, without a database lookup or a signature check.
 * Wall time: it bounds memory, it is not the sign-in's clock.
 */
export class RefusedSignatures {
  private readonly refused = new Map<string, number>();

  constructor(private readonly onRemembered: () => void = () => {}) {}

  static key(request: AuthenticateRequest): string {
    return createHash('sha256')
      .update(request.publicKey)
      .update('\0')
      .update(request.nonce)
      .update('\0')
      .update(Uint8Array.from(request.signedMessage))
      .digest('base64');
  }

  has(key: string): boolean {
    const until = this.refused.get(key);
    if (until === undefined) return false;
    if (until <= Date.now()) {
      this.refused.delete(key);
      return false;
    }
    this.onRemembered();
    return true;
  }

  add(key: string): void {
    this.refused.set(key, Date.now() + NONCE_TTL_MS);
    while (this.refused.size > REFUSED_MAX) {
      const oldest = this.refused.keys().next().value;
      if (oldest === undefined) break;
      this.refused.delete(oldest);
    }
  }
}

const invalidSignature = () => new DomainError('invalid_signature', 'Invalid signature');

/** Verifies a signed sign-in message and answers a session token; any failure is a 401. */
export async function authenticate(
  deps: SignInDeps,
  body: unknown,
  refused: RefusedSignatures = new RefusedSignatures(),
): Promise<{ token: string; wallet: string }> {
  const parsed = authenticateRequestSchema.safeParse(body);
  if (!parsed.success) {
    const keyIssue = parsed.error.issues.some((i) => i.path[0] === 'publicKey');
    throw keyIssue
      ? new DomainError('invalid_public_key', 'Invalid public key')
      : new DomainError('invalid_request', validationMessage(parsed.error));
  }
  const request: AuthenticateRequest = parsed.data;
  const publicKey = decodePublicKey(request.publicKey);
  const key = RefusedSignatures.key(request);
  if (refused.has(key)) throw invalidSignature();
  const now = deps.clock.now();

  const stored = await deps.prisma.authNonce.findUnique({ where: { nonce: request.nonce } });
  if (!stored || stored.domain !== deps.config.signInDomain) {
    throw new DomainError('invalid_nonce', 'Unknown nonce, please sign in again');
  }
  if (stored.expiresAt <= now) throw new DomainError('nonce_expired', 'Nonce expired, please sign in again');
  if (stored.usedAt) throw new DomainError('nonce_used', 'Nonce already used, please sign in again');

  const message = signInMessage(deps, {
    address: request.publicKey,
    nonce: stored.nonce,
    issuedAt: stored.issuedAt,
    expiresAt: stored.expiresAt,
  });
  const valid = nacl.sign.detached.verify(
    new TextEncoder().encode(message),
    Uint8Array.from(request.signedMessage),
    publicKey,
  );
  if (!valid) {
    refused.add(key);
    throw invalidSignature();
  }

  // The conditional update is what makes a nonce single use, even for concurrent requests.
  const { count } = await deps.prisma.authNonce.updateMany({
    where: { nonce: stored.nonce, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  if (count !== 1) throw new DomainError('nonce_used', 'Nonce already used, please sign in again');

  return { token: issueAuthToken(deps.config, request.publicKey, deps.clock), wallet: request.publicKey };
}
