/**
 * @module agent-flags
 * The flags of the headset's agent (`--agent-*`, `--stt-url`, `--tts-url`): their lines of
 * `vitrine serve --help` and the host options they give, each checked with a readable message.
 */
import { AGENT_PROVIDERS, type AgentHostOptions, type AgentProvider } from '../options/agent-options.ts';
import { number, type FlagReader } from './option-flags.ts';

export const AGENT_USAGE = `  --agent-model NAME         the model that answers the agent socket's turns
                             (WS /ws/agent/{room}); without it the socket still serves
                             headset tools and a turn answers that no model is configured
  --agent-provider P         anthropic (the Messages API, key from ANTHROPIC_API_KEY) or
                             openai (any OpenAI-compatible chat-completions server: llama.cpp,
                             Ollama, vLLM; key from OPENAI_API_KEY when set) (default anthropic)
  --agent-url URL            the provider's base URL, e.g. http://127.0.0.1:8080/v1 for a
                             local server (default: the provider's own)
  --agent-turn-timeout S     seconds one turn may run before it is stopped (default 120)
  --agent-max-rooms N        conversations this host holds at once; a turn past it is refused
                             (default 32)
  --agent-max-queued N       turns that may wait in one room; a turn past it is refused at
                             once, without asking the model (default 8)
  --agent-context-bytes B    bytes of a room's conversation one request to the model carries;
                             the oldest turns are left out first (default 1048576)
  --stt-url URL              speech to text: a server with OpenAI's /v1/audio/transcriptions
                             (whisper.cpp's and others); turns voice on (default: none, and
                             bind answers that voice is not enabled)
  --tts-url URL              text to speech: a server with OpenAI's /v1/audio/speech; the
                             agent's replies are spoken (default: none, replies are text)
`;

const URL_FLAG = /^https?:\/\/[^/\s]+(\/\S*)?$/;

function url(flag: string, raw: string | undefined): string | undefined {
  if (raw !== undefined && !URL_FLAG.test(raw)) throw new Error(`--${flag} must be an http(s) URL, got '${raw}'`);
  return raw;
}

export function agentOptions(get: FlagReader): AgentHostOptions {
  const provider = get('agent-provider');
  if (provider !== undefined && !(AGENT_PROVIDERS as readonly string[]).includes(provider)) {
    throw new Error(`--agent-provider must be one of ${AGENT_PROVIDERS.join(', ')}, got '${provider}'`);
  }
  const model = get('agent-model');
  if (model !== undefined && model.trim() === '') throw new Error('--agent-model must name a model');
  const timeout = number('agent-turn-timeout', get('agent-turn-timeout'), false);
  if (timeout === 0) throw new Error('--agent-turn-timeout must be above 0');
  const rooms = number('agent-max-rooms', get('agent-max-rooms'), true);
  if (rooms === 0) throw new Error('--agent-max-rooms must be at least 1');
  const queued = number('agent-max-queued', get('agent-max-queued'), true);
  const contextBytes = number('agent-context-bytes', get('agent-context-bytes'), true);
  if (contextBytes !== undefined && contextBytes < 1024) throw new Error('--agent-context-bytes must be at least 1024');
  return {
    agentModel: model,
    agentProvider: provider as AgentProvider | undefined,
    agentUrl: url('agent-url', get('agent-url')),
    agentTurnTimeoutSeconds: timeout,
    agentMaxRooms: rooms,
    agentMaxQueued: queued,
    agentContextBytes: contextBytes,
    sttUrl: url('stt-url', get('stt-url')),
    ttsUrl: url('tts-url', get('tts-url')),
  };
}
