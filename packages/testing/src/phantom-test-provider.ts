// A Phantom-compatible wallet for browser tests: `window.phantom.solana` (and `window.solana`) with
// connect, disconnect, signMessage, signTransaction, signAllTransactions and signAndSendTransaction.
// The secret key stays in Node; the page asks Node to sign (as a real extension signs outside the page).
import { Keypair } from '@solana/web3.js';
import type { Page } from 'playwright-core';
import nacl from 'tweetnacl';

export interface TestWalletOptions {
  keypair?: Keypair;
  /** The RPC endpoint signAndSendTransaction submits to (Phantom uses its own). */
  rpcUrl: string;
  /** Answer sign requests with a user rejection (code 4001), as when the user declines. */
  reject?: boolean;
}

export async function installPhantomTestProvider(page: Page, options: TestWalletOptions): Promise<Keypair> {
  const keypair = options.keypair ?? Keypair.generate();
  await page.exposeFunction('__strmTestWalletSign', (messageBase64: string) => {
    if (options.reject) return null;
    const signature = nacl.sign.detached(Buffer.from(messageBase64, 'base64'), keypair.secretKey);
    return Buffer.from(signature).toString('base64');
  });
  // The function below runs in the page from its source text. Under tsx (esbuild's keepNames) that text
  // calls esbuild's __name helper, which the page lacks: without this shim the wallet is never installed.
  await page.addInitScript('globalThis.__name ??= (target) => target;');
  await page.addInitScript(
    ({ publicKey, publicKeyBytes, rpcUrl }) => {
      type Listener = (...args: unknown[]) => void;
      const listeners: Record<string, Listener[]> = {};
      const emit = (event: string, ...args: unknown[]) => {
        for (const l of listeners[event] ?? []) l(...args);
      };
      const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
      const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
      // Enough of web3.js's PublicKey for dapps and the wallet adapter (which reads toBytes()).
      const key = {
        toBase58: () => publicKey,
        toString: () => publicKey,
        toJSON: () => publicKey,
        toBytes: () => Uint8Array.from(publicKeyBytes),
      };
      const sign = async (message: Uint8Array): Promise<Uint8Array> => {
        const signature = await (
          window as unknown as { __strmTestWalletSign(m: string): Promise<string | null> }
        ).__strmTestWalletSign(toBase64(message));
        if (!signature) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
        return fromBase64(signature);
      };
      // Legacy web3.js Transaction or VersionedTransaction, whichever the dapp built.
      interface LegacyTx {
        serializeMessage(): Uint8Array;
        signatures: Array<{ publicKey: { toBase58(): string } }>;
        addSignature(pubkey: unknown, signature: Uint8Array): void;
        serialize(): Uint8Array;
      }
      interface VersionedTx {
        message: { serialize(): Uint8Array; staticAccountKeys: Array<{ toBase58(): string }> };
        signatures: Uint8Array[];
        serialize(): Uint8Array;
      }
      const signTransaction = async <T extends LegacyTx | VersionedTx>(tx: T): Promise<T> => {
        if ('serializeMessage' in tx) {
          // Compiling the message is what fills in the signer slots.
          const message = tx.serializeMessage();
          const slot = tx.signatures.find((s) => s.publicKey.toBase58() === publicKey);
          if (!slot) throw new Error('The transaction does not need this wallet’s signature');
          tx.addSignature(slot.publicKey, await sign(message));
        } else {
          const index = tx.message.staticAccountKeys.findIndex((k) => k.toBase58() === publicKey);
          tx.signatures[index] = await sign(tx.message.serialize());
        }
        return tx;
      };
      const provider = {
        isPhantom: true,
        isConnected: false,
        publicKey: null as typeof key | null,
        async connect() {
          provider.isConnected = true;
          provider.publicKey = key;
          emit('connect', key);
          return { publicKey: key };
        },
        async disconnect() {
          provider.isConnected = false;
          provider.publicKey = null;
          emit('disconnect');
        },
        async signMessage(message: Uint8Array) {
          return { signature: await sign(message), publicKey: key };
        },
        signTransaction,
        async signAllTransactions<T extends LegacyTx | VersionedTx>(txs: T[]) {
          return Promise.all(txs.map(signTransaction));
        },
        async signAndSendTransaction<T extends LegacyTx | VersionedTx>(tx: T) {
          const signed = await signTransaction(tx);
          const res = await fetch(rpcUrl, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'sendTransaction',
              params: [
                toBase64(signed.serialize()),
                { encoding: 'base64', preflightCommitment: 'confirmed' },
              ],
            }),
          });
          const body = (await res.json()) as { result?: string; error?: { message: string } };
          if (!body.result) throw new Error(body.error?.message ?? 'sendTransaction failed');
          return { signature: body.result, publicKey: key };
        },
        on(event: string, listener: Listener) {
          listeners[event] = [...(listeners[event] ?? []), listener];
        },
        off(event: string, listener: Listener) {
          listeners[event] = (listeners[event] ?? []).filter((l) => l !== listener);
        },
      };
      // Phantom also sets isPhantomInstalled, which the wallet adapter's detection requires.
      Object.assign(window, { phantom: { solana: provider }, solana: provider, isPhantomInstalled: true });
    },
    {
      publicKey: keypair.publicKey.toBase58(),
      publicKeyBytes: Array.from(keypair.publicKey.toBytes()),
      rpcUrl: options.rpcUrl,
    },
  );
  return keypair;
}
