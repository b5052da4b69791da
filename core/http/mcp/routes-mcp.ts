/**
 * @module routes-mcp
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP, with the official SDK, in its
 * stateless form (a server and transport per request, answers as JSON), so any host of a
 * service answers any call. The tools (name, description, input schema, call) are one record:
 * mcp-tools.ts. A tool whose request is refused answers a tool error carrying the host's
 * detail; the host keeps serving. It is a write: the cross-site guard applies, and the admin token when the
 * host has one (always, when bound beyond loopback). GET and DELETE (sessions, server
 * streams) are not used: 405.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { loadOnce } from '../../loading/load-once.ts';
import { createHostError, HostError } from '../../errors.ts';
import { requestOrigin } from '../../exports/request-origin.ts';
import { ToolImage, type HeadsetCalls, type ToolCallContext, type ToolDeps } from '../../mcp/mcp-tool.ts';
import { callTool, isToolName, listTools, TOOL_NAMES } from '../../mcp/mcp-tools.ts';
import { mcpRoomUses } from '../../mcp/tool-rooms.ts';
import { isRecord } from '../../wire/json-object.ts';

/** The server's name and version as MCP clients see them. */
const SERVER_INFO = { name: 'vitrine', version: '1' };
const INSTRUCTIONS =
  'vitrine serves specimens (meshes, volumes, point clouds, images), computed by functions or published as files. ' +
  'Rooms are shared workspaces: compute or show_in_room puts a result in front of everyone following a room, set_view shares how it is shown, ' +
  'room_image shows it to you. For long work, start_job, then job_status until it is not running (cancel_job to stop).';

/**
 * The SDK, loaded by the first call rather than at start: it and its schema library are a few
 * hundred modules, and most hosts never see an agent.
 */
const loadSdk = loadOnce(async () => {
  const [server, transport, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return { Server: server.Server, Transport: transport.StreamableHTTPServerTransport, types };
});

function asText(value: unknown): CallToolResult {
  if (value instanceof ToolImage) {
    const data = Buffer.from(value.bytes.buffer, value.bytes.byteOffset, value.bytes.byteLength).toString('base64');
    return { content: [{ type: 'image', data, mimeType: value.mime }, { type: 'text', text: JSON.stringify(value.about) }] };
  }
  const text = JSON.stringify(value, null, 1);
  const structured = isRecord(value) ? { structuredContent: value } : {};
  return { content: [{ type: 'text', text }], ...structured };
}

async function createServer(call: ToolCallContext, log: FastifyRequest['log']): Promise<Server> {
  const { Server, types } = await loadSdk();
  const { CallToolRequestSchema, ListToolsRequestSchema } = types;
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    return { tools: listTools(call.ctx) as { name: string; description: string; inputSchema: { type: 'object' } }[] };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    if (!isToolName(name)) return { isError: true, content: [{ type: 'text', text: `no tool '${name}' (tools: ${TOOL_NAMES.join(', ')})` }] };
    try {
      return asText(await callTool(call, name, args));
    } catch (error) {
      if (error instanceof HostError) return { isError: true, content: [{ type: 'text', text: `${error.statusCode}: ${error.message}` }] };
      log.error({ err: error, tool: name }, 'an MCP tool failed');
      return { isError: true, content: [{ type: 'text', text: `tool '${name}' failed: internal error` }] };
    }
  });
  return server;
}

export async function mcpRoutes(app: FastifyInstance, { ctx, headsets }: { ctx: ToolDeps; headsets?: HeadsetCalls }): Promise<void> {
  app.post('/mcp', {
    schema: {
      summary: 'Model Context Protocol (Streamable HTTP, stateless): tools for agents',
      description: 'JSON-RPC messages of the Model Context Protocol. Tools: ' + TOOL_NAMES.join(', ') + '. Needs the admin token when the host has one.',
    },
    compress: false,
    config: { roomAccess: mcpRoomUses },
    handler: async (request, reply) => {
      const server = await createServer({ ctx, baseUrl: requestOrigin(request), ...(headsets ? { headsets } : {}) }, request.log);
      const transport = new (await loadSdk()).Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      // The headers the host's hooks set (CORS, request id) go out with the SDK's answer.
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders() as OutgoingHttpHeaders)) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });

  const notUsed = async (_request: FastifyRequest, reply: { header(name: string, value: string): unknown }) => {
    reply.header('allow', 'POST');
    throw createHostError('SPC_ERR_MCP_METHOD');
  };
  app.get('/mcp', { schema: { hide: true } }, notUsed);
  app.delete('/mcp', { schema: { hide: true } }, notUsed);
}
