// What the fake platform servers share: a loopback HTTP server, JSON answers and injected failures.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** An answer the fake gives instead of the real one: a status (429, 500…), a malformed body, a delay. */
export interface Fault {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as is (e.g. 'not json'); defaults to a JSON error body. */
  body?: string;
  /** Waits this long before answering (longer than the client's deadline: a timeout). */
  delayMs?: number;
  /** How many requests it applies to (default 1). */
  times?: number;
}

export type Route = (req: IncomingMessage, url: URL, body: string) => Promise<Answer> | Answer;
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** A raw body (HTML, or deliberately broken JSON). */
  raw?: string;
}

export abstract class FakeHttpServer {
  private server: Server | undefined;
  private readonly faults: Array<{ path: string; fault: Fault; left: number }> = [];
  private readonly sockets = new Set<import('node:net').Socket>();
  /** Every request's method and path with query, in order (for assertions on what was asked). */
  readonly requests: Array<{ method: string; path: string; url: URL }> = [];
  /**
   * Every answer of a route, in order: its path and when it was made (this machine's clock, which a product
   * on it stamps its records with): a test orders the product's reactions against the answers it got.
   */
  readonly answers: Array<{ path: string; at: number }> = [];
  url = '';

  protected abstract route(method: string, path: string): Route | undefined;

  /** The next `times` requests whose path starts with `path` get `fault`. */
  fail(path: string, fault: Fault): void {
    this.faults.push({ path, fault, left: fault.times ?? 1 });
  }

  /** Drops the faults not yet applied (a test's fault that outlasted the requests it was meant for). */
  clearFaults(): void {
    this.faults.length = 0;
  }

  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server?.listen(port, host, resolve));
    const address = this.server.address() as { port: number };
    this.url = `http://${host}:${address.port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, url });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const fault = this.takeFault(url.pathname);
    if (fault) {
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (res.destroyed) return;
      const status = fault.status ?? 200;
      res.writeHead(status, { 'content-type': 'application/json', ...fault.headers });
      res.end(fault.body ?? JSON.stringify({ status, message: 'fault injected by the fake server' }));
      return;
    }
    const route = this.route(req.method ?? 'GET', url.pathname);
    let answer: Answer;
    try {
      answer = route
        ? await route(req, url, body)
        : { status: 404, body: { status: 404, message: 'Not Found' } };
    } catch (err) {
      answer = { status: 500, body: { message: String(err) } };
    }
    this.answers.push({ path: url.pathname, at: Date.now() });
    const headers: Record<string, string> = {
      'content-type': answer.raw !== undefined ? 'text/html; charset=utf-8' : 'application/json',
      ...answer.headers,
    };
    res.writeHead(answer.status, headers);
    res.end(answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body)));
  }

  private takeFault(path: string): Fault | undefined {
    const i = this.faults.findIndex((f) => path.startsWith(f.path));
    if (i < 0) return undefined;
    const entry = this.faults[i]!;
    entry.left -= 1;
    if (entry.left <= 0) this.faults.splice(i, 1);
    return entry.fault;
  }
}
