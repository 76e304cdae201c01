// A browser wallet flow against the local chain: a page in Debian's Chromium builds a transaction with
// @solana/web3.js, a Phantom-compatible provider signs and sends it, the page confirms it over PubSub.
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';
import { launchChromium } from '@strm/testing';
import { build } from 'esbuild';
import nacl from 'tweetnacl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPhantomTestProvider } from '@strm/testing/phantom';
import { startTestChain } from './support.ts';

let chain: Awaited<ReturnType<typeof startTestChain>>;
let server: Server;
let pageUrl: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;

async function servePage(): Promise<void> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./browser/wallet-page.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const js = bundle.outputFiles[0]!.text;
  server = createServer((req, res) => {
    if (req.url === '/bundle.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(js);
    } else {
      res
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end('<!doctype html><script type="module" src="/bundle.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
}

beforeAll(async () => {
  chain = await startTestChain();
  await servePage();
  chromium = await launchChromium();
});

afterAll(async () => {
  await chromium?.close();
  server?.close();
  await chain?.stop();
});

async function walletPage(options: { reject?: boolean } = {}) {
  const page = await chromium.browser.newPage();
  const wallet = await installPhantomTestProvider(page, { rpcUrl: chain.rpcUrl, ...options });
  await page.goto(pageUrl);
  await page.waitForFunction(() => 'transfer' in window);
  return { page, wallet };
}

describe('a Phantom-compatible wallet in Chromium', () => {
  it('signs and sends a transaction the page built, confirmed over WebSocket', async () => {
    const { page, wallet } = await walletPage();
    const airdrop = await chain.connection.requestAirdrop(wallet.publicKey, 2 * LAMPORTS_PER_SOL);
    await chain.connection.confirmTransaction({
      signature: airdrop,
      ...(await chain.connection.getLatestBlockhash()),
    });
    const receiver = Keypair.generate().publicKey;

    const result = await page.evaluate(
      ([rpcUrl, wsUrl, to]) =>
        (
          window as unknown as { transfer(r: string, w: string, t: string, l: number): Promise<unknown> }
        ).transfer(rpcUrl!, wsUrl!, to!, 123_456_789),
      [chain.rpcUrl, chain.wsUrl, receiver.toBase58()],
    );

    expect(result).toMatchObject({ err: null, signature: expect.any(String) });
    expect(await chain.connection.getBalance(receiver)).toBe(123_456_789);
    const tx = await chain.connection.getTransaction((result as { signature: string }).signature, {
      maxSupportedTransactionVersion: 0,
    });
    expect(tx?.transaction.message.staticAccountKeys[0]?.toBase58()).toBe(wallet.publicKey.toBase58());
  });

  it('signs a sign-in message with the wallet’s key', async () => {
    const { page, wallet } = await walletPage();
    const text = 'strm.local wants you to sign in with your Solana account';
    const { publicKey, signature } = (await page.evaluate(
      (t) => (window as unknown as { signIn(t: string): Promise<unknown> }).signIn(t),
      text,
    )) as { publicKey: string; signature: number[] };
    expect(publicKey).toBe(wallet.publicKey.toBase58());
    expect(
      nacl.sign.detached.verify(
        new TextEncoder().encode(text),
        Uint8Array.from(signature),
        wallet.publicKey.toBytes(),
      ),
    ).toBe(true);
  });

  it('rejects with code 4001 when the user declines', async () => {
    const { page } = await walletPage({ reject: true });
    const error = await page.evaluate(() =>
      (window as unknown as { signIn(t: string): Promise<unknown> }).signIn('hello').then(
        () => null,
        (e: { code?: number; message: string }) => ({ code: e.code, message: e.message }),
      ),
    );
    expect(error).toEqual({ code: 4001, message: 'User rejected the request.' });
  });
});
