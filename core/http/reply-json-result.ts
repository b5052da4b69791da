/**
 * @module reply-json-result
 * Sends a stored result as the JSON typed result, encoded off the event loop.
 */
import type { FastifyReply } from 'fastify';
import type { HostContext } from '../host-context.ts';
import type { StoredResult } from '../results/stored-result.ts';

export async function sendJsonResult(ctx: HostContext, reply: FastifyReply, result: StoredResult, functionName: string): Promise<FastifyReply> {
  const bytes = await ctx.json.encode(result, functionName);
  reply.header('content-type', 'application/json; charset=utf-8');
  reply.header('content-length', bytes.length);
  return reply.send(bytes);
}
