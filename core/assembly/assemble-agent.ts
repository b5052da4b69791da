/**
 * @module assemble-agent
 * The headset's agent of a host, put together from its options: the model (`--agent-model`),
 * the speech services (`--stt-url`, `--tts-url`), and the client ids of the host's home (so none
 * is ever given twice: in the data folder of a lone host that keeps one, in Redis for a whole
 * service, else in memory; store-homes.ts), and on a service the relay by which one host holds
 * each room's conversation for all.
 */
import type { FastifyBaseLogger } from 'fastify';
import { AgentService, type AgentServiceDeps } from '../agent/agent-service.ts';
import type { AgentModel } from '../agent/model/agent-model.ts';
import { AnthropicModel } from '../agent/model/anthropic-model.ts';
import { OpenAiModel } from '../agent/model/openai-model.ts';
import type { AgentRoom } from '../agent/agent-room.ts';
import { OpenAiSpeechToText, OpenAiTextToSpeech, SPEECH_REQUEST_MS } from '../agent/voice/speech-services.ts';
import { VoiceRoom } from '../agent/voice/voice-room.ts';
import type { HostContext } from '../host-context.ts';
import type { People } from '../people/people.ts';
import type { ConversationRecord } from '../history/conversation-record.ts';

/** The model: none without `--agent-model`, else the provider `--agent-provider` says, at `--agent-url`. Each step's own time limit is the turn's. */
function modelOf(options: HostContext['options']): AgentModel | null {
  if (options.agentModel === null) return null;
  const settings = { model: options.agentModel, url: options.agentUrl, timeoutMs: options.agentTurnTimeoutSeconds * 1000, env: process.env };
  return options.agentProvider === 'openai' ? new OpenAiModel(settings) : new AnthropicModel(settings);
}

/** A room's voice when the host has speech to text (`--stt-url`), speaking replies when it has text to speech. */
function voiceOf(options: HostContext['options']): ((room: AgentRoom) => VoiceRoom) | null {
  if (options.sttUrl === null) return null;
  // No speech request outlives a turn's own limit.
  const timeoutMs = Math.min(SPEECH_REQUEST_MS, options.agentTurnTimeoutSeconds * 1000);
  const stt = new OpenAiSpeechToText(options.sttUrl, process.env, timeoutMs);
  const tts = options.ttsUrl === null ? null : new OpenAiTextToSpeech(options.ttsUrl, process.env, timeoutMs);
  return (room) => new VoiceRoom(room, stt, tts);
}

/** Where a host's agent keeps its rooms' client ids, and on a service how its rooms span the hosts. */
export type AgentHome = Pick<AgentServiceDeps, 'ids' | 'relay'>;

export function assembleAgent(ctx: HostContext, people: People, conversations: ConversationRecord, home: AgentHome, log: FastifyBaseLogger): AgentService {
  return new AgentService({
    ctx,
    people,
    ids: home.ids,
    relay: home.relay,
    conversations,
    model: modelOf(ctx.options),
    voice: voiceOf(ctx.options),
    warn: (message, err) => log.warn({ err }, message),
  });
}
