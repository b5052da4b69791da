/**
 * @module scripted-model
 * A model provider on loopback for the agent's tests and benchmarks (no model can run on the
 * test machines): an HTTP server speaking the Anthropic Messages API (`POST /v1/messages`) or an
 * OpenAI-compatible chat-completions server (`POST /v1/chat/completions`), both streamed as
 * Server-Sent Events in the provider's own event shapes, or an error body with its status, or a
 * 200 that is not an event stream. The test scripts each answer from the request it got (its last
 * user words, the tool results it carries); every request is kept for the test to read.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Provider = 'anthropic' | 'openai';

/** One answer: text pieces streamed in order, then tool calls; or an error status with its message. */
export interface ScriptedReply {
  text?: string[];
  /** Tool calls; `raw` is written as the arguments in place of `args` as JSON (arguments that do not parse). */
  calls?: { name: string; args: Record<string, unknown>; raw?: string }[];
  status?: number;
  error?: string;
  /** A 200 that is not an event stream (a server that ignored `stream`, or a proxy's page): its type and body. */
  plain?: { contentType: string; body: string };
  /** Resolves when the answer may start (a test holds a turn running). */
  hold?: Promise<void>;
  /**
   * Awaited before each text piece is written (a benchmark paces its stream with it); each
   * piece's `{now}` is replaced by performance.now() as it is written, so a reader can tell how
   * long it took to arrive.
   */
  pace?: () => Promise<void>;
}

/** A request as the server got it, with what the tests ask of it read in either provider's shapes. */
export interface ModelRequestSeen {
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
  /** The text of the newest user message. */
  lastUserText: string;
  /**
   * Tool results this request carries (answers to the previous step's calls), oldest first: `text`
   * with the host's data markers taken off (`data`: whether it came between them).
   */
  toolResults: { id: string; text: string; images: number; isError: boolean; data: boolean }[];
  /** The tool names offered. */
  toolNames: string[];
  /** Bytes of the request body. */
  bytes: number;
}

export interface ScriptedModel {
  /** What `--agent-url` takes for this provider. */
  url: string;
  requests: ModelRequestSeen[];
  /** Sets the script: how each request is answered. */
  answer(script: (request: ModelRequestSeen) => ScriptedReply | Promise<ScriptedReply>): void;
  /** When each request arrived and when its whole body had (performance.now() of this process). */
  timings: { arrived: number; ended: number }[];
  close(): Promise<void>;
}

/** A tool's answer between the host's data markers (`<` inside is escaped, so the first close ends it). */
const MARKED = /<room-data>([^<]*)<\/room-data>/g;

/** `text` without the data markers, and whether it had any. */
function unmarked(text: string): { text: string; data: boolean } {
  return { text: text.replace(MARKED, '$1'), data: text.search(MARKED) >= 0 };
}

type Block = { type: string; text?: string; tool_use_id?: string; content?: unknown; is_error?: boolean };
type Message = { role: string; content: unknown; tool_call_id?: string };

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Block[]).filter((b) => b.type === 'text').map((b) => b.text ?? '').join('');
}

function imagesOf(content: unknown): number {
  return Array.isArray(content) ? (content as Block[]).filter((b) => b.type === 'image' || b.type === 'image_url').length : 0;
}

function readAnthropic(body: Record<string, unknown>): Pick<ModelRequestSeen, 'lastUserText' | 'toolResults' | 'toolNames'> {
  const messages = (body.messages as Message[]) ?? [];
  const last = messages.at(-1);
  const blocks = Array.isArray(last?.content) ? (last.content as Block[]) : [];
  const toolResults = blocks
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({ id: b.tool_use_id ?? '', ...unmarked(textOf(b.content)), images: imagesOf(b.content), isError: b.is_error === true }));
  const isResults = (m: Message) => Array.isArray(m.content) && (m.content as Block[])[0]?.type === 'tool_result';
  const lastUser = [...messages].reverse().find((m) => m.role === 'user' && textOf(m.content) !== '' && !isResults(m));
  return { lastUserText: textOf(lastUser?.content), toolResults, toolNames: ((body.tools as { name: string }[]) ?? []).map((t) => t.name) };
}

function readOpenai(body: Record<string, unknown>): Pick<ModelRequestSeen, 'lastUserText' | 'toolResults' | 'toolNames'> {
  const messages = (body.messages as Message[]) ?? [];
  const toolResults: ModelRequestSeen['toolResults'] = [];
  let i = messages.length - 1;
  // The step's tool messages, and the picture message that may follow them.
  while (i >= 0 && messages[i]!.role === 'user' && imagesOf(messages[i]!.content) > 0 && messages[i - 1]?.role === 'tool') i--;
  const pictures = i < messages.length - 1 ? imagesOf(messages.at(-1)!.content) : 0;
  for (let j = i; j >= 0 && messages[j]!.role === 'tool'; j--) {
    const text = textOf(messages[j]!.content);
    toolResults.unshift({ id: messages[j]!.tool_call_id ?? '', ...unmarked(text), images: 0, isError: text.startsWith('error: ') });
  }
  if (pictures > 0 && toolResults.length > 0) toolResults.at(-1)!.images = pictures;
  const lastUser = [...messages].reverse().find((m) => m.role === 'user' && !(imagesOf(m.content) > 0 && textOf(m.content).startsWith('The picture')));
  const toolNames = ((body.tools as { function: { name: string } }[]) ?? []).map((t) => t.function.name);
  return { lastUserText: textOf(lastUser?.content), toolResults, toolNames };
}

type Events = [event: string | null, data: unknown][];

function sse(events: Events, event: string | null, data: unknown): void {
  events.push([event, data]);
}

const stamp = (data: unknown) => (typeof data === 'string' ? data : JSON.stringify(data)).replaceAll('{now}', performance.now().toFixed(3));

/** Writes the events, all at once or (paced) one text piece at a time. */
async function writeEvents(res: ServerResponse, events: Events, pace: (() => Promise<void>) | undefined): Promise<void> {
  for (const [event, data] of events) {
    const piece = JSON.stringify(data).includes('"text_delta"') || JSON.stringify(data).includes('"content":');
    if (pace && piece) await pace();
    res.write(`${event ? `event: ${event}\n` : ''}data: ${stamp(data)}\n\n`);
  }
}

/** The Messages API's stream: message_start, a block per text and tool call, message_delta, message_stop. */
function streamAnthropic(res: Events, reply: ScriptedReply, n: number): void {
  const usage = { input_tokens: 100 + n, output_tokens: 1 };
  const message = { id: `msg_${n}`, type: 'message', role: 'assistant', content: [], model: 'scripted', stop_reason: null, stop_sequence: null, usage };
  sse(res, 'message_start', { type: 'message_start', message });
  let index = 0;
  if (reply.text?.length) {
    sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const piece of reply.text) sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
    sse(res, 'content_block_stop', { type: 'content_block_stop', index: index++ });
  }
  for (const [k, call] of (reply.calls ?? []).entries()) {
    const block = { type: 'tool_use', id: `toolu_${n}_${k}`, name: call.name, input: {} };
    sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: block });
    const json = call.raw ?? JSON.stringify(call.args);
    // Split, as the API streams a tool's input in pieces.
    for (const piece of [json.slice(0, Math.ceil(json.length / 2)), json.slice(Math.ceil(json.length / 2))]) {
      if (piece) sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index: index++ });
  }
  const stop = reply.calls?.length ? 'tool_use' : 'end_turn';
  sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 + n } });
  sse(res, 'message_stop', { type: 'message_stop' });
}

/** Chat completions' stream: content deltas, tool-call deltas by index, the finish, usage, [DONE]. */
function streamOpenai(res: Events, reply: ScriptedReply, n: number): void {
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id: `chatcmpl-${n}`,
    object: 'chat.completion.chunk',
    created: 1,
    model: 'scripted',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  sse(res, null, chunk({ role: 'assistant', content: '' }));
  for (const piece of reply.text ?? []) sse(res, null, chunk({ content: piece }));
  for (const [k, call] of (reply.calls ?? []).entries()) {
    sse(res, null, chunk({ tool_calls: [{ index: k, id: `call_${n}_${k}`, type: 'function', function: { name: call.name, arguments: '' } }] }));
    sse(res, null, chunk({ tool_calls: [{ index: k, function: { arguments: call.raw ?? JSON.stringify(call.args) } }] }));
  }
  sse(res, null, chunk({}, reply.calls?.length ? 'tool_calls' : 'stop'));
  const usage = { prompt_tokens: 100 + n, completion_tokens: 10 + n, total_tokens: 110 + 2 * n };
  sse(res, null, { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1, model: 'scripted', choices: [], usage });
  sse(res, null, '[DONE]');
}

function errorBody(provider: Provider, status: number, message: string): unknown {
  const kind = status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : 'api_error';
  if (provider === 'anthropic') return { type: 'error', error: { type: kind, message } };
  return { error: { message, type: status === 401 ? 'invalid_request_error' : 'server_error', code: null } };
}

export async function startScriptedModel(provider: Provider): Promise<ScriptedModel> {
  let script: (request: ModelRequestSeen) => ScriptedReply | Promise<ScriptedReply> = () => ({ text: ['(no script)'] });
  const requests: ModelRequestSeen[] = [];
  const timings: { arrived: number; ended: number }[] = [];
  const path = provider === 'anthropic' ? '/v1/messages' : '/v1/chat/completions';
  const server = createServer((req, res) => {
    const arrived = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const ended = performance.now();
      void (async () => {
        if (req.method !== 'POST' || req.url?.split('?')[0] !== path) return res.writeHead(404).end();
        const raw = Buffer.concat(chunks);
        const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        const read = provider === 'anthropic' ? readAnthropic(body) : readOpenai(body);
        const seen: ModelRequestSeen = { body, headers: req.headers, bytes: raw.length, ...read };
        requests.push(seen);
        timings.push({ arrived, ended });
        const reply = await script(seen);
        await reply.hold;
        if (reply.status && reply.status >= 400) {
          res.writeHead(reply.status, { 'content-type': 'application/json' });
          return res.end(JSON.stringify(errorBody(provider, reply.status, reply.error ?? 'scripted failure')));
        }
        if (reply.plain) return res.writeHead(200, { 'content-type': reply.plain.contentType }).end(reply.plain.body);
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const events: Events = [];
        (provider === 'anthropic' ? streamAnthropic : streamOpenai)(events, reply, requests.length);
        await writeEvents(res, events, reply.pace);
        res.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: provider === 'anthropic' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`,
    requests,
    timings,
    answer: (next) => void (script = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
