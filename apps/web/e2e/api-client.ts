// What the tests do through the API as another party (an admin, a second tab): sign in as a keypair
// with the real endpoints, then call them with its token.
import type { Keypair } from '@solana/web3.js';
import nacl from 'tweetnacl';

export async function signInAs(baseUrl: string, keypair: Keypair): Promise<string> {
  const wallet = keypair.publicKey.toBase58();
  const nonce = (await (await fetch(`${baseUrl}/api/v1/nonce?publicKey=${wallet}`)).json()) as {
    nonce: string;
    message: string;
  };
  const signedMessage = Array.from(
    nacl.sign.detached(new TextEncoder().encode(nonce.message), keypair.secretKey),
  );
  const res = await fetch(`${baseUrl}/api/v1/authenticate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ publicKey: wallet, signedMessage, nonce: nonce.nonce }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export async function callApi(
  baseUrl: string,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}
