/**
 * @module assemble-agent
 * The headset's agent of a host, put together from its options: the model (`--agent-model`),
 * the speech services (`--stt-url`, `--tts-url`) and where client ids are counted.
 */
import type { FastifyBaseLogger } from 'fastify';
import { AgentService } from '../agent/agent-service.ts';
import { MemoryClientIds } from '../agent/client-ids.ts';
import { modelOf } from '../agent/model/model-of.ts';
import type { HostContext } from '../host-context.ts';
import type { People } from '../people/people.ts';

export function assembleAgent(ctx: HostContext, people: People, log: FastifyBaseLogger): AgentService {
  return new AgentService({
    ctx,
    people,
    ids: new MemoryClientIds(),
    model: modelOf(ctx.options),
    voice: null,
    warn: (message, err) => log.warn({ err }, message),
  });
}
