// A minimal dapp page for the browser-wallet test: builds a transfer with @solana/web3.js in the browser
// and has the injected wallet sign and send it, then confirms it over the chain's PubSub.
import { Connection, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';

interface Provider {
  connect(): Promise<{ publicKey: { toString(): string } }>;
  signMessage(message: Uint8Array): Promise<{ signature: Uint8Array }>;
  signAndSendTransaction(tx: Transaction): Promise<{ signature: string }>;
}

Object.assign(window, {
  async transfer(rpcUrl: string, wsUrl: string, to: string, lamports: number) {
    const provider = (window as unknown as { phantom: { solana: Provider } }).phantom.solana;
    const { publicKey } = await provider.connect();
    const from = new PublicKey(publicKey.toString());
    const connection = new Connection(rpcUrl, { commitment: 'confirmed', wsEndpoint: wsUrl });
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: from, blockhash, lastValidBlockHeight }).add(
      SystemProgram.transfer({ fromPubkey: from, toPubkey: new PublicKey(to), lamports }),
    );
    const { signature } = await provider.signAndSendTransaction(tx);
    const confirmation = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
    return { signature, err: confirmation.value.err };
  },
  async signIn(text: string) {
    const provider = (window as unknown as { phantom: { solana: Provider } }).phantom.solana;
    const { publicKey } = await provider.connect();
    const { signature } = await provider.signMessage(new TextEncoder().encode(text));
    return { publicKey: publicKey.toString(), signature: Array.from(signature) };
  },
});
