/**
 * @module model-of
 * The model a host's options name: none without `--agent-model`, else the provider
 * `--agent-provider` says, at `--agent-url`. Each step's own time limit is the turn's.
 */
import type { AgentHostOptions } from '../../options/agent-options.ts';
import type { AgentModel } from './agent-model.ts';
import { AnthropicModel } from './anthropic-model.ts';
import { OpenAiModel } from './openai-model.ts';

export function modelOf(options: Required<AgentHostOptions>, env: NodeJS.ProcessEnv = process.env): AgentModel | null {
  if (options.agentModel === null) return null;
  const settings = { model: options.agentModel, url: options.agentUrl, timeoutMs: options.agentTurnTimeoutSeconds * 1000, env };
  return options.agentProvider === 'openai' ? new OpenAiModel(settings) : new AnthropicModel(settings);
}
