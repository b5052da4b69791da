/**
 * @module mcp-client
 * The MCP SDK's own client connected to a host's `/mcp` over Streamable HTTP, as an agent
 * connects (with `headers`, e.g. the admin token, on every request); `fileMcp()`, one host and
 * one such client shared by a file's tests.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll } from 'vitest';
import { fileTestApp } from './create-test-app.ts';

export async function connectMcp(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'vitrine-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

/** What a tool call answers: text or image content, and the structured result of most tools. */
export type ToolAnswer = {
  isError?: boolean;
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  structuredContent?: Record<string, unknown>;
};

/** A file's MCP client: connected to the file's one host (fileTestApp) before its tests, closed after them. */
export interface FileMcp {
  /** The host's URL. */
  readonly url: string;
  readonly client: Client;
  /** Calls tool `name` with `args`. */
  call(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
}

/** One host and one MCP client for the calling file's tests. Called at the top of a file. */
export function fileMcp(): FileMcp {
  const server = fileTestApp();
  let client: Client | undefined;
  beforeAll(async () => {
    client = await connectMcp(server.url);
  });
  afterAll(async () => {
    await client?.close();
  });
  return {
    get url() {
      return server.url;
    },
    get client() {
      return client!;
    },
    async call(name, args) {
      return (await client!.callTool({ name, arguments: args })) as ToolAnswer;
    },
  };
}
