/**
 * @module agent-options
 * The host options of the headset's agent (`--agent-model`, `--agent-provider`, `--agent-url`,
 * `--agent-turn-timeout`, `--agent-max-rooms`, `--agent-max-queued`, `--agent-context-bytes`,
 * `--stt-url`, `--tts-url`): their defaults and checks, low beside the host's other option
 * groups (the agent itself stands above options.ts, which folds them into the host's). No model
 * leaves the agent socket open for headset tools only; no speech services leave voice off.
 */

export const AGENT_PROVIDERS = ['anthropic', 'openai'] as const;
export type AgentProvider = (typeof AGENT_PROVIDERS)[number];

export interface AgentHostOptions {
  /** The model that answers a room's turns (`--agent-model`); null: no model, a `text` is refused. @defaultValue null */
  agentModel?: string | null;
  /** Which API the model is reached by (`--agent-provider`). @defaultValue `"anthropic"` */
  agentProvider?: AgentProvider;
  /** The provider's base URL (`--agent-url`, e.g. http://127.0.0.1:8080/v1 for a local server); null: the provider's own. @defaultValue null */
  agentUrl?: string | null;
  /** Longest a turn may run, seconds (`--agent-turn-timeout`). @defaultValue 120 */
  agentTurnTimeoutSeconds?: number;
  /** Conversations one host holds at once (`--agent-max-rooms`). @defaultValue 32 */
  agentMaxRooms?: number;
  /** Turns that may wait in one room; past it a turn is refused at once (`--agent-max-queued`). @defaultValue 8 */
  agentMaxQueued?: number;
  /** Bytes of a room's conversation one model request carries, oldest turns left out first (`--agent-context-bytes`). @defaultValue 1048576 */
  agentContextBytes?: number;
  /** Speech to text: a server with OpenAI's `/v1/audio/transcriptions` (`--stt-url`). @defaultValue null */
  sttUrl?: string | null;
  /** Text to speech: a server with OpenAI's `/v1/audio/speech` (`--tts-url`). @defaultValue null */
  ttsUrl?: string | null;
}

export const AGENT_DEFAULTS = Object.freeze({
  agentModel: null as string | null,
  agentProvider: 'anthropic' as AgentProvider,
  agentUrl: null as string | null,
  agentTurnTimeoutSeconds: 120,
  agentMaxRooms: 32,
  agentMaxQueued: 8,
  agentContextBytes: 1024 * 1024,
  sttUrl: null as string | null,
  ttsUrl: null as string | null,
});

/** The agent's numeric options and their rules (options.ts checks them with the others): a number above 0, or a whole one. */
export const AGENT_NUMBER_RULES = [['agentTurnTimeoutSeconds', {}], ['agentMaxRooms', { integer: true }]] as const;

const HTTP_URL = /^https?:\/\/[^/\s]+(\/\S*)?$/;

function checkUrl(name: string, value: unknown): void {
  if (value === null || (typeof value === 'string' && HTTP_URL.test(value))) return;
  throw new TypeError(`${name} must be an http(s) URL or null, got '${String(value)}'`);
}

/** Throws a TypeError naming the first bad agent option. */
export function checkAgentOptions(o: Required<AgentHostOptions>): void {
  if (o.agentModel !== null && (typeof o.agentModel !== 'string' || o.agentModel.trim() === '')) throw new TypeError('agentModel must be a model name or null');
  if (!(AGENT_PROVIDERS as readonly string[]).includes(o.agentProvider)) {
    throw new TypeError(`agentProvider must be one of ${AGENT_PROVIDERS.join(', ')}, got '${String(o.agentProvider)}'`);
  }
  checkUrl('agentUrl', o.agentUrl);
  checkUrl('sttUrl', o.sttUrl);
  checkUrl('ttsUrl', o.ttsUrl);
  if (!Number.isInteger(o.agentMaxQueued) || o.agentMaxQueued < 0) {
    throw new TypeError(`agentMaxQueued must be an integer of 0 or more, got ${String(o.agentMaxQueued)}`);
  }
  if (!Number.isInteger(o.agentContextBytes) || o.agentContextBytes < 1024) {
    throw new TypeError(`agentContextBytes must be an integer of at least 1024, got ${String(o.agentContextBytes)}`);
  }
}
