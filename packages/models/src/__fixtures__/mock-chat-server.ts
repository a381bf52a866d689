// A scripted Chat Completions server on 127.0.0.1 for tests: a real node:http server on port 0.
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  readonly promptTokens: number;
}

/** What the script answers to one request. */
export type Reply =
  | {
      readonly kind: 'text';
      readonly content: string;
      readonly completionTokens?: number;
      /** false: the 200 carries no `usage` field */
      readonly usage?: false;
      /** The `total_tokens` reported (default prompt + completion), e.g. 0 as some servers report. */
      readonly totalTokens?: number;
    }
  | { readonly kind: 'tool'; readonly calls: ReadonlyArray<{ readonly name: string; readonly arguments: unknown }> }
  | { readonly kind: 'status'; readonly status: number; readonly headers?: Record<string, string>; readonly body?: unknown }
  | { readonly kind: 'raw'; readonly status: number; readonly headers?: Record<string, string>; readonly body: string }
  | { readonly kind: 'hang' }
  | { readonly kind: 'drop' };

export type Script = (request: RecordedRequest, index: number) => Reply | Promise<Reply>;

/** The mock's own token count: o200k_base over the serialized messages (and tools when present). */
export function mockPromptTokens(body: Record<string, unknown>): number {
  const messages = encode(JSON.stringify(body['messages'] ?? [])).length;
  const tools = body['tools'] === undefined ? 0 : encode(JSON.stringify(body['tools'])).length;
  return messages + tools;
}

export interface MockChatServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  readonly events: EventEmitter;
  /** Resolves when the n-th request (1-based) has arrived. */
  waitForRequests(n: number): Promise<void>;
  /** Resolves when the client has closed the connections of n hung requests (an abort reached the socket). */
  waitForClosed(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startMockChatServer(script: Script): Promise<MockChatServer> {
  const requests: RecordedRequest[] = [];
  const events = new EventEmitter();
  let closed = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = {};
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        promptTokens: mockPromptTokens(body),
      };
      const index = requests.length;
      requests.push(recorded);
      events.emit('request', recorded, index);
      void Promise.resolve(script(recorded, index)).then((reply) => answer(reply));
      function answer(reply: Reply): void {
      if (reply.kind === 'hang') {
        // Never answers; the client's timeout (or an abort) must fire. Reports when the client hangs up.
        res.on('close', () => {
          closed += 1;
          events.emit('closed', index);
        });
        return;
      }
      if (reply.kind === 'drop') {
        req.socket.destroy(); // a network error: the connection closes without a response
        return;
      }
      if (reply.kind === 'raw') {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
        res.end(reply.body);
        return;
      }
      if (reply.kind === 'status') {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
        res.end(JSON.stringify(reply.body ?? { error: { message: 'scripted failure', type: 'server_error' } }));
        return;
      }
      const model = String(body['model'] ?? 'mock');
      const message =
        reply.kind === 'text'
          ? { role: 'assistant', content: reply.content }
          : {
              role: 'assistant',
              content: null,
              tool_calls: reply.calls.map((c, i) => ({
                id: `call_${index}_${i}`,
                type: 'function',
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              })),
            };
      const completionTokens =
        reply.kind === 'text' ? (reply.completionTokens ?? encode(reply.content).length) : encode(JSON.stringify(message.tool_calls)).length;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${index}`,
          object: 'chat.completion',
          created: 1_700_000_000 + index,
          model,
          choices: [{ index: 0, message, finish_reason: reply.kind === 'text' ? 'stop' : 'tool_calls' }],
          ...(reply.kind === 'text' && reply.usage === false
            ? {}
            : { usage: { prompt_tokens: recorded.promptTokens, completion_tokens: completionTokens, total_tokens: reply.kind === 'text' && reply.totalTokens !== undefined ? reply.totalTokens : recorded.promptTokens + completionTokens } }),
        }),
      );
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    events,
    async waitForRequests(n: number): Promise<void> {
      while (requests.length < n) await once(events, 'request');
    },
    async waitForClosed(n: number): Promise<void> {
      while (closed < n) await once(events, 'closed');
    },
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
