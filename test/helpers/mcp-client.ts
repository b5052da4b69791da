/**
 * @module mcp-client
 * The MCP SDK's own client connected to a host's `/mcp` over Streamable HTTP, as an agent
 * connects (with `headers`, e.g. the admin token, on every request).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function connectMcp(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'vitrine-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}
