// Test helper: a real redis-server on a free loopback port, in a temporary directory, without
// persistence; `stop()` ends it and removes the directory. Not part of the package.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';

export type TestRedis = {
  readonly port: number;
  /** `redis://[:PASSWORD@]127.0.0.1:PORT`. */
  readonly url: string;
  readonly password: string | null;
  readonly process: ChildProcess;
  /** Everything redis-server wrote to stdout and stderr. */
  output(): string;
  /** Stops the server (SIGTERM, then waits for it to exit) and removes its directory. */
  stop(): Promise<void>;
};

/** A free TCP port on 127.0.0.1 (tests). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function pingUntilReady(url: string, proc: ChildProcess, deadlineMs: number, ca: string | undefined): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`redis-server exited with code ${proc.exitCode} before answering PING`);
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000, enableOfflineQueue: false, ...(ca ? { tls: { ca } } : {}) });
    client.on('error', () => undefined);
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') return;
    } catch {
      // not yet
    } finally {
      client.disconnect();
    }
    if (Date.now() > until) throw new Error(`redis-server did not answer PING within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The test-only certificate and key of a TLS redis-server (bullmq-tls.gen.sh writes them). */
export const TLS_CERT = fileURLToPath(new URL('./bullmq-tls.crt', import.meta.url));
export const TLS_KEY = fileURLToPath(new URL('./bullmq-tls.key', import.meta.url));

/**
 * Starts `redis-server --port P --bind 127.0.0.1 --save "" --appendonly no --dir <tmp>` (plus
 * `--requirepass` when a password is given; with `tls`, TLS only on P with the test certificate, and a
 * `rediss://` URL) and resolves once PING answers. `port`: on that port (a Redis started again where
 * one was stopped), else on a free one.
 */
export async function startRedis(opts: { password?: string; bin?: string; tls?: boolean; port?: number } = {}): Promise<TestRedis> {
  const bin = opts.bin ?? 'redis-server';
  for (let attempt = 0; ; attempt++) {
    const dir = await mkdtemp(join(tmpdir(), 'prove-redis-'));
    const port = opts.port ?? (await freePort());
    const args = opts.tls
      ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', TLS_CERT, '--tls-key-file', TLS_KEY, '--tls-auth-clients', 'no']
      : ['--port', String(port)];
    args.push('--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir);
    if (opts.password) args.push('--requirepass', opts.password);
    const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.once('error', () => undefined);
    const scheme = opts.tls ? 'rediss' : 'redis';
    const url = opts.password ? `${scheme}://:${encodeURIComponent(opts.password)}@127.0.0.1:${port}` : `${scheme}://127.0.0.1:${port}`;
    const stop = async (): Promise<void> => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    };
    try {
      await pingUntilReady(url, proc, 10_000, opts.tls ? await readFile(TLS_CERT, 'utf8') : undefined);
    } catch (err) {
      await stop();
      if (attempt < 3 && opts.port === undefined && /exited/.test(String(err))) continue; // the port was taken meanwhile
      throw new Error(`${String(err)}\n${out}`);
    }
    return { port, url, password: opts.password ?? null, process: proc, output: () => out, stop };
  }
}
