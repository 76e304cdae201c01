// Signing in as a wallet through the real endpoints, as a browser wallet would.
import { Keypair } from '@solana/web3.js';
import type { Express } from 'express';
import request from 'supertest';
import nacl from 'tweetnacl';

export interface SignedIn {
  keypair: Keypair;
  wallet: string;
  token: string;
  auth: { Authorization: string };
}

export async function getNonce(app: Express, wallet: string): Promise<{ nonce: string; message: string }> {
  const res = await request(app).get('/api/v1/nonce').query({ publicKey: wallet });
  if (res.status !== 200) throw new Error(`nonce: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export function signMessage(keypair: Keypair, message: string): number[] {
  return Array.from(nacl.sign.detached(new TextEncoder().encode(message), keypair.secretKey));
}

export async function signIn(app: Express, keypair = Keypair.generate()): Promise<SignedIn> {
  const wallet = keypair.publicKey.toBase58();
  const { nonce, message } = await getNonce(app, wallet);
  const res = await request(app)
    .post('/api/v1/authenticate')
    .send({ publicKey: wallet, signedMessage: signMessage(keypair, message), nonce });
  if (res.status !== 200) throw new Error(`authenticate: ${res.status} ${JSON.stringify(res.body)}`);
  return { keypair, wallet, token: res.body.token, auth: { Authorization: `Bearer ${res.body.token}` } };
}
