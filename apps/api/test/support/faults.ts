// Faults injected where the API meets PostgreSQL and the chain, for the payout suites: a database statement is
// matched by its SQL, a JSON-RPC request by its method, never by how many calls came before it (code that
// reorders its statements would move a count-based fault onto another step without a word). Each fault names
// the step it breaks; the error it raises says which, and `hits` tells whether the step was reached at all.
import { PrismaPg } from '@prisma/adapter-pg';
import type { Connection } from '@solana/web3.js';
import { DATABASE_POOL_SIZE } from '../../src/db/index.ts';
import { PrismaClient } from '../../src/generated/prisma/client.ts';

/** The error a broken step raises (its message names the step). */
export class InjectedFault extends Error {
  constructor(readonly step: string) {
    super(`injected fault: ${step}`);
    this.name = 'InjectedFault';
  }
}

/**
 * What a broken step does:
 * - `refuse`: fails without doing anything (the statement is not run, the request not sent);
 * - `lose-answer`: is done, then fails (a commit whose answer the network lost; a request forwarded, then an
 *   error answered);
 * - `hang`: waits until the fault is healed, then runs (a crash before it, or a slow database);
 * - a function: the test's own behaviour around the real call (`real()` runs it; a JSON-RPC request's
 *   parameters may be given changed, `real(changed)`).
 */
export type Effect =
  | 'refuse'
  | 'lose-answer'
  | 'hang'
  | ((real: (args?: unknown[]) => Promise<unknown>, args: unknown[]) => Promise<unknown>);

interface Rule {
  step: string;
  matches(what: string): boolean;
  kind: 'sql' | 'rpc';
  effect: Effect;
  healed: boolean;
  release: () => void;
  released: Promise<void>;
}

/** A fault in place: `heal()` ends it (and lets every step it held go on). */
export interface Injected {
  readonly step: string;
  heal(): void;
}

type Adapter = Awaited<ReturnType<PrismaPg['connect']>>;
type Queryable = Pick<Adapter, 'queryRaw' | 'executeRaw'>;
interface JsonRpc {
  _rpcRequest(method: string, args: unknown[]): Promise<unknown>;
  _rpcBatchRequest(requests: Array<{ methodName: string; args: unknown[] }>): Promise<unknown[]>;
  _buildArgs(args: unknown[], commitment?: string, encoding?: string, extra?: object): unknown[];
  getBlockHeight(commitmentOrConfig?: string | { commitment?: string }): Promise<number>;
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

export class Faults {
  private readonly rules: Rule[] = [];
  private readonly clients: PrismaClient[] = [];
  /** Times each step was reached (by the step's name). */
  readonly hits = new Map<string, number>();
  /** Every statement run through `prisma()`, on one line each (to find the text a fault should match). */
  readonly statements: string[] = [];
  /** Every JSON-RPC method asked through `connection()`, in order; a batch as its methods joined by '+'. */
  readonly methods: string[] = [];

  /** Breaks every statement whose SQL (on one line) contains `sql` or matches it. */
  statement(step: string, sql: string | RegExp, effect: Effect = 'refuse'): Injected {
    return this.add(
      step,
      'sql',
      (text) => (typeof sql === 'string' ? text.includes(sql) : sql.test(text)),
      effect,
    );
  }

  /** Breaks every JSON-RPC request of `method` (alone or in a batch). */
  rpc(step: string, method: string, effect: Effect = 'refuse'): Injected {
    return this.add(step, 'rpc', (m) => m === method, effect);
  }

  hitsOf(step: string): number {
    return this.hits.get(step) ?? 0;
  }

  /** A Prisma client on `url` (a pool of its own) whose statements pass through the faults. */
  prisma(url: string): PrismaClient {
    const pg = new PrismaPg({ connectionString: url, max: DATABASE_POOL_SIZE });
    const factory = new Proxy(pg, {
      get: (target, key, receiver) =>
        key === 'connect'
          ? async () => this.database(await target.connect())
          : bound(target, Reflect.get(target, key, receiver)),
    });
    const client = new PrismaClient({ adapter: factory });
    this.clients.push(client);
    return client;
  }

  /**
   * `connection` as the code under test sees it, its JSON-RPC requests passing through the faults. Every
   * web3.js method sends through `_rpcRequest` or `_rpcBatchRequest` on `this`, which this object overrides
   * (getBlockHeight, made per connection, is made again here); everything else is the real connection's.
   */
  connection(connection: Connection): Connection {
    const real = connection as unknown as JsonRpc;
    const faulty = Object.create(connection) as JsonRpc;
    faulty._rpcRequest = (method, args) => {
      this.methods.push(method);
      return this.run('rpc', method, args, (changed = args) => real._rpcRequest(method, changed));
    };
    faulty._rpcBatchRequest = async (requests) => {
      this.methods.push(requests.map((r) => r.methodName).join('+'));
      if (!requests.some((r) => this.ruleFor('rpc', r.methodName))) return real._rpcBatchRequest(requests);
      // A batch with a broken request: each request on its own, so only the broken ones are touched.
      return Promise.all(
        requests.map((r) =>
          this.run('rpc', r.methodName, r.args, (changed = r.args) =>
            real._rpcRequest(r.methodName, changed),
          ),
        ),
      );
    };
    // web3.js makes getBlockHeight per connection, a closure over it (one request shared by its callers): on
    // this object it would ask the real connection directly. Here it asks through the faults, as the others.
    faulty.getBlockHeight = async (commitmentOrConfig) => {
      const { commitment, ...config } =
        typeof commitmentOrConfig === 'string'
          ? { commitment: commitmentOrConfig }
          : (commitmentOrConfig ?? {});
      const args = faulty._buildArgs([], commitment, undefined, config);
      const answer = (await faulty._rpcRequest('getBlockHeight', args)) as {
        result?: number;
        error?: { message: string };
      };
      if (answer.error) throw new Error(`failed to get block height information: ${answer.error.message}`);
      return answer.result!;
    };
    return faulty as unknown as Connection;
  }

  /** Heals every fault and closes the clients made by `prisma()`. */
  async close(): Promise<void> {
    for (const rule of this.rules) {
      rule.healed = true;
      rule.release();
    }
    await Promise.all(this.clients.map((c) => c.$disconnect()));
  }

  private add(step: string, kind: Rule['kind'], matches: Rule['matches'], effect: Effect): Injected {
    const gate: { release?: () => void } = {};
    const released = new Promise<void>((resolve) => {
      gate.release = resolve;
    });
    const release = () => gate.release?.();
    const rule: Rule = { step, kind, matches, effect, healed: false, release, released };
    this.rules.push(rule);
    return {
      step,
      heal: () => {
        rule.healed = true;
        rule.release();
      },
    };
  }

  private ruleFor(kind: Rule['kind'], what: string): Rule | undefined {
    return this.rules.find((r) => r.kind === kind && !r.healed && r.matches(what));
  }

  private async run<T>(
    kind: Rule['kind'],
    what: string,
    args: unknown[],
    real: (args?: unknown[]) => Promise<T>,
  ): Promise<T> {
    const rule = this.ruleFor(kind, what);
    if (!rule) return real();
    this.hits.set(rule.step, this.hitsOf(rule.step) + 1);
    const { effect } = rule;
    if (effect === 'refuse') throw new InjectedFault(rule.step);
    if (effect === 'lose-answer') {
      await real();
      throw new InjectedFault(rule.step);
    }
    if (effect === 'hang') {
      await rule.released;
      return real();
    }
    return effect(real, args) as Promise<T>;
  }

  private database<Q extends Queryable>(queryable: Q): Q {
    return new Proxy(queryable, {
      get: (target, key, receiver) => {
        const value = Reflect.get(target, key, receiver);
        if (key === 'queryRaw' || key === 'executeRaw') {
          return (query: Parameters<Queryable['queryRaw']>[0]) => {
            const sql = oneLine(query.sql);
            this.statements.push(sql);
            return this.run('sql', sql, query.args, () =>
              (value as (q: typeof query) => Promise<unknown>).call(target, query),
            );
          };
        }
        if (key === 'startTransaction') {
          return async (...args: unknown[]) =>
            this.database(await (value as (...a: unknown[]) => Promise<Queryable>).apply(target, args));
        }
        return bound(target, value);
      },
    });
  }
}

function bound(target: object, value: unknown): unknown {
  return typeof value === 'function' ? value.bind(target) : value;
}
