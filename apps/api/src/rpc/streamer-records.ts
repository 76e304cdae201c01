// The chain is the truth about tiers: the streamer record at [b"streamer", wallet] exists only while the
// streamer is active. This is the API's reader of those records. Reads go through @strm/mining-client;
// changes are watched for every live session at once over ONE PubSub connection (rpc/pubsub.ts) with two
// subscriptions, whatever the number of sessions:
// - `programSubscribe` on the mining program, filtered to streamer records (Anchor discriminator): a record
//   written (activated again, changed) arrives decoded;
// - `logsSubscribe` mentioning the program: a deactivation's `TierDeactivated` event names the wallet. A
//   validator sends no program notification when an account is closed (agave's program
//   subscriptions only see accounts the program still owns), so the close is learnt from the event and
//   confirmed by reading the record.
// - `accountSubscribe` on any other account the API watches (the program's config, whose tier deposits the
//   catalog reloads): one connection, one reconnect policy and one teardown for every chain watch.
// The connection retries a refused or dropped subscription with backoff; once restored every watched record
// is read again: a change missed meanwhile is reported as having happened when the watch was lost (fail
// closed: nothing is credited past that moment).
import { type Connection, PublicKey } from '@solana/web3.js';
import { type MiningProgram, readStreamer, streamerPda } from '@strm/mining-client';
import { z } from 'zod';
import { jsonRpcOf, rpcAnswer } from './json-rpc.ts';
import { flatBase58 } from './base58.ts';
import { PubSubClient, type PubSubStats } from './pubsub.ts';
import type { Logger } from '../logger.ts';

/** A streamer's activation record on chain: the mining tier it activated, when, and what it staked. */
export interface TierActivation {
  tierName: string;
  /** The activation's time on chain (the rate doubles every 10 days from here). */
  activatedAt: Date;
  /** Base units staked. */
  deposited: bigint;
}

/** The wallet's record as it is now (null: closed or inactive), and when it changed, when known. */
export interface RecordChange {
  record: TierActivation | null;
  /** The chain's time of the change (a deactivation event), or the moment the watch was lost (ms). */
  atMs?: number;
}

export interface StreamerRecords {
  /** The active tier, or null when the wallet has no active record. Rejects when the RPC fails. */
  read(wallet: string): Promise<TierActivation | null>;
  /** Several wallets' records (pages of 100 accounts per request). Rejects when the RPC fails. */
  readMany(wallets: readonly string[]): Promise<Map<string, TierActivation | null>>;
  /** Reports changes of the wallet's record until the returned function runs. */
  watch(wallet: string, onChange: (change: RecordChange) => void): () => void;
  /**
   * Tells `onChange` when the account changes, and after every restored connection (a change may have been
   * missed meanwhile), until the returned function runs.
   */
  watchAccount(address: PublicKey, onChange: () => void): () => void;
  /** Whether changes are being received (waits up to `timeoutMs` for the subscriptions). */
  ready(timeoutMs: number): Promise<boolean>;
  close(): void;
}

export interface RecordWatchOptions {
  wsUrl: string;
  logger: Logger;
  now(): number;
  /** First retry delay; doubled per failed attempt up to `maxBackoffMs`. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

const PAGE = 100;

/**
 * getMultipleAccounts' answer as the API reads it: each account's lamports and data (base64), or null. Read
 * as plain JSON-RPC rather than through web3.js's response schemas, whose validation (superstruct, an Error
 * built for every union branch tried) was a twentieth of the engine's CPU at 10,000 live sessions.
 */
const multipleAccountsAnswer = rpcAnswer(
  z.object({
    context: z.object({ slot: z.number() }),
    value: z.array(
      z.object({ lamports: z.number(), data: z.tuple([z.string(), z.literal('base64')]) }).nullable(),
    ),
  }),
);

/** The accounts at `addresses` (base58), in order (lamports and data, or null), and the slot they are of. */
async function readAccounts(
  connection: Connection,
  addresses: string[],
): Promise<{ slot: number; accounts: Array<{ lamports: number; data: Buffer } | null> }> {
  const raw = await jsonRpcOf(connection)._rpcRequest('getMultipleAccounts', [
    addresses,
    { encoding: 'base64', commitment: 'confirmed' },
  ]);
  const answer = multipleAccountsAnswer.parse(raw);
  if ('error' in answer) {
    throw new Error(`getMultipleAccounts failed: ${answer.error.code} ${answer.error.message}`);
  }
  const { value, context } = answer.result;
  if (value.length !== addresses.length) {
    throw new Error(`getMultipleAccounts answered ${value.length} accounts for ${addresses.length}`);
  }
  const accounts = value.map((a) =>
    a ? { lamports: a.lamports, data: Buffer.from(a.data[0], 'base64') } : null,
  );
  return { slot: context.slot, accounts };
}
/** How `emit!` (sol_log_data) writes an event into the transaction's logs. */
const PROGRAM_DATA = 'Program data: ';

function decodeRecord(program: MiningProgram, data: Buffer): TierActivation | null {
  if (!data.length) return null;
  try {
    const raw = program.coder.accounts.decode('streamer', data);
    if (!raw.isActive) return null;
    return {
      tierName: raw.tierName,
      activatedAt: new Date(Number(raw.activatedAt.toString()) * 1000),
      deposited: BigInt(raw.deposited.toString()),
    };
  } catch {
    return null;
  }
}

/** What the chain watch has done (the benchmark prints it): the connection's counters and the re-reads. */
export interface ChainWatchStats extends PubSubStats {
  resyncs: number;
}

export function chainStreamerRecords(
  program: MiningProgram,
  options: RecordWatchOptions,
): StreamerRecords & { readonly stats: ChainWatchStats } {
  return new ChainStreamerRecords(program, options);
}

type Listener = (change: RecordChange) => void;

class ChainStreamerRecords implements StreamerRecords {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly walletOfPda = new Map<string, string>();
  /**
   * The record address of every watched wallet: deriving it (a search for an off-curve point) cost an eighth
   * of the engine's CPU at 3,000 live sessions when done again at every checkpoint's re-read.
   */
  private readonly pdaOfWallet = new Map<string, string>();
  /** Accounts watched with accountSubscribe, by address: one subscription whatever the number of listeners. */
  private readonly accounts = new Map<
    string,
    { subscription: { cancel(): void }; listeners: Set<() => void> }
  >();
  private readonly pubsub: PubSubClient;
  /** Whether the program and logs subscriptions are made (on first use: the connection opens then). */
  private started = false;
  /**
   * The newest slot a read answered from: a read from an older one (a restarted validator replaying, an RPC node
   * behind the others) is refused as unknown, or a stake seen seconds ago would read as gone.
   */
  private newestSlot = 0;
  /** When the last working watch was lost (set until a restore has read every record again). */
  private lostAtMs: number | undefined;
  /** Counters for the benchmark and the logs (the connection counts in the same object). */
  readonly stats: ChainWatchStats = { connects: 0, refused: 0, dropped: 0, resyncs: 0, notifications: 0 };

  constructor(
    private readonly program: MiningProgram,
    private readonly options: RecordWatchOptions,
  ) {
    this.pubsub = new PubSubClient(
      {
        url: options.wsUrl,
        logger: options.logger,
        name: 'streamer records',
        minBackoffMs: options.minBackoffMs,
        maxBackoffMs: options.maxBackoffMs,
      },
      this.stats,
    );
    this.pubsub.onLost((wasSubscribed) => {
      // What is watched now is read again once the subscriptions are back.
      if (wasSubscribed || this.listeners.size) this.lostAtMs ??= this.options.now();
    });
    this.pubsub.onRestored(() => this.restored());
  }

  async read(wallet: string): Promise<TierActivation | null> {
    const record = await readStreamer(this.program, new PublicKey(wallet));
    if (!record?.isActive) return null;
    return {
      tierName: record.tierName,
      activatedAt: new Date(record.activatedAt * 1000),
      deposited: record.deposited,
    };
  }

  async readMany(wallets: readonly string[]): Promise<Map<string, TierActivation | null>> {
    const result = new Map<string, TierActivation | null>();
    const connection = this.program.provider.connection;
    for (let i = 0; i < wallets.length; i += PAGE) {
      const page = wallets.slice(i, i + PAGE);
      const { slot, accounts: infos } = await readAccounts(
        connection,
        page.map((w) => this.addressOf(w)),
      );
      if (slot < this.newestSlot)
        throw new Error(`records read at slot ${slot}, behind ${this.newestSlot} seen`);
      this.newestSlot = slot;
      page.forEach((wallet, j) => {
        const info = infos[j];
        result.set(wallet, info && info.lamports > 0 ? decodeRecord(this.program, info.data) : null);
      });
    }
    return result;
  }

  watch(wallet: string, onChange: Listener): () => void {
    let set = this.listeners.get(wallet);
    if (!set) {
      set = new Set();
      this.listeners.set(wallet, set);
      const pda = flatBase58(this.pda(wallet));
      this.pdaOfWallet.set(wallet, pda);
      this.walletOfPda.set(pda, wallet);
    }
    set.add(onChange);
    this.start();
    return () => {
      const current = this.listeners.get(wallet);
      if (!current) return;
      current.delete(onChange);
      if (current.size) return;
      this.listeners.delete(wallet);
      this.walletOfPda.delete(this.addressOf(wallet));
      this.pdaOfWallet.delete(wallet);
    };
  }

  watchAccount(address: PublicKey, onChange: () => void): () => void {
    this.start();
    const key = address.toBase58();
    let entry = this.accounts.get(key);
    if (!entry) {
      const listeners = new Set<() => void>();
      const subscription = this.pubsub.subscribe(
        'accountSubscribe',
        [key, { encoding: 'base64', commitment: 'confirmed' }],
        () => this.accountChanged(key),
      );
      entry = { subscription, listeners };
      this.accounts.set(key, entry);
    }
    entry.listeners.add(onChange);
    return () => {
      entry.listeners.delete(onChange);
      // The subscription itself lasts as long as the connection: the next one does not make it.
      if (!entry.listeners.size && this.accounts.get(key) === entry) {
        this.accounts.delete(key);
        entry.subscription.cancel();
      }
    };
  }

  private pda(wallet: string): PublicKey {
    return streamerPda(new PublicKey(wallet), this.program.programId);
  }

  /** The wallet's record address, base58 (kept while the wallet is watched). */
  private addressOf(wallet: string): string {
    return this.pdaOfWallet.get(wallet) ?? this.pda(wallet).toBase58();
  }

  ready(timeoutMs: number): Promise<boolean> {
    this.start();
    return this.pubsub.ready(timeoutMs);
  }

  close(): void {
    this.pubsub.close();
  }

  /** The two subscriptions every watched record shares, made once (the connection opens with them). */
  private start(): void {
    if (this.started) return;
    this.started = true;
    const { programId } = this.program;
    const discriminator = this.program.coder.accounts.memcmp('streamer') as { bytes: string };
    this.pubsub.subscribe(
      'programSubscribe',
      [
        programId.toBase58(),
        {
          encoding: 'base64',
          commitment: 'confirmed',
          filters: [{ memcmp: { offset: 0, bytes: discriminator.bytes } }],
        },
      ],
      (result) => this.programNotification(result),
    );
    this.pubsub.subscribe(
      'logsSubscribe',
      [{ mentions: [programId.toBase58()] }, { commitment: 'confirmed' }],
      (result) => this.logsNotification(result),
    );
  }

  /** Every subscription is confirmed on a new connection: what may have been missed is read again. */
  private restored(): void {
    // A change of a watched account may have been missed while the connection was down or not yet made.
    if (this.stats.connects > 1) for (const address of this.accounts.keys()) this.accountChanged(address);
    if (this.lostAtMs === undefined) return;
    const lostAtMs = this.lostAtMs;
    this.options.logger.info(
      { watched: this.listeners.size },
      'streamer records: PubSub restored; reading every watched record again',
    );
    const wallets = [...this.listeners.keys()];
    this.readMany(wallets)
      .then((records) => {
        this.stats.resyncs++;
        if (this.lostAtMs === lostAtMs && this.pubsub.live) this.lostAtMs = undefined;
        for (const [wallet, record] of records) this.dispatch(wallet, { record, atMs: lostAtMs });
      })
      .catch((err: unknown) => {
        // Still unknown: drop the connection so the next restore reads them again.
        this.options.logger.warn({ err }, 'streamer records: reading watched records failed');
        this.pubsub.reconnect();
      });
  }

  private programNotification(result: unknown): void {
    const value = (result as { value?: unknown } | undefined)?.value;
    if (!value) return;
    const { pubkey, account } = value as {
      pubkey?: string;
      account?: { lamports?: number; data?: [string, string] };
    };
    const wallet = pubkey && this.walletOfPda.get(pubkey);
    if (!wallet || !account) return;
    const data = Buffer.from(account.data?.[0] ?? '', 'base64');
    // A closed account (as some RPCs report it): no lamports, no data.
    const record = (account.lamports ?? 0) > 0 ? decodeRecord(this.program, data) : null;
    this.dispatch(wallet, { record });
  }

  private logsNotification(result: unknown): void {
    const value = (result as { value?: unknown } | undefined)?.value;
    if (!value) return;
    const { err, logs } = value as { err?: unknown; logs?: string[] };
    if (err || !logs) return;
    // When it was seen, on the engine's clock (the chain's own timestamp has a second's resolution and
    // follows the validator's clock, not the one sessions are timed with).
    const atMs = this.options.now();
    for (const line of logs) {
      if (!line.startsWith(PROGRAM_DATA)) continue;
      let event: { name: string; data: Record<string, unknown> } | null;
      try {
        event = this.program.coder.events.decode(line.slice(PROGRAM_DATA.length));
      } catch {
        continue;
      }
      if (event?.name !== 'TierDeactivated' && event?.name !== 'tierDeactivated') continue;
      const wallet = (event.data.wallet as PublicKey | undefined)?.toBase58();
      if (!wallet || !this.listeners.has(wallet)) continue;
      // Any program can log bytes that decode as this event: the record itself confirms it (a session is
      // not kept on trust when the chain cannot be read).
      this.read(wallet)
        .catch((readErr: unknown) => {
          this.options.logger.warn(
            { err: readErr, wallet },
            'streamer records: confirming a deactivation failed',
          );
          return null;
        })
        .then((record) => this.dispatch(wallet, { record, atMs }))
        .catch((dispatchErr: unknown) =>
          this.options.logger.error({ err: dispatchErr }, 'streamer records: listener failed'),
        );
    }
  }

  private accountChanged(address: string): void {
    for (const listener of [...(this.accounts.get(address)?.listeners ?? [])]) {
      try {
        listener();
      } catch (err) {
        this.options.logger.error({ err, address }, 'chain watch: account listener failed');
      }
    }
  }

  private dispatch(wallet: string, change: RecordChange): void {
    for (const listener of [...(this.listeners.get(wallet) ?? [])]) {
      try {
        listener(change);
      } catch (err) {
        this.options.logger.error({ err, wallet }, 'streamer records: listener failed');
      }
    }
  }
}
