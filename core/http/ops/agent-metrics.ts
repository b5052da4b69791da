/**
 * @module agent-metrics
 * The headset agent's series on `/metrics`, read from its figures when scraped: turns by how
 * they ended, tool calls by where they ran and how, the provider's latency (model steps and
 * their seconds added up: their ratio is the mean), the tokens it counted in and out, the bytes
 * sent to it by room (what a hosted model bills is read here), and the sockets and conversations
 * this host holds now.
 */
import type { Registry } from 'prom-client';
import type { AgentFigures } from '../../agent/agent-figures.ts';
import { counter, gauge } from './figure-series.ts';

export function registerAgentMetrics(registry: Registry, figures: AgentFigures): void {
  counter(registry, 'vitrine_agent_turns_total', 'Agent turns by how they ended (done, interrupted, failed)', ['outcome'], (set) => {
    for (const [outcome, n] of Object.entries(figures.turns)) set({ outcome }, n);
  });
  const toolHelp = 'Agent tool calls by where they ran (host, headset) and outcome (ok, error)';
  counter(registry, 'vitrine_agent_tool_calls_total', toolHelp, ['place', 'outcome'], (set) => {
    for (const [key, n] of Object.entries(figures.toolCalls)) {
      const [place, outcome] = key.split(':') as [string, string];
      set({ place, outcome }, n);
    }
  });
  counter(registry, 'vitrine_agent_provider_steps_total', 'Model steps answered by the provider', [], (set) => set({}, figures.providerSteps));
  const secondsHelp = 'Seconds the provider took to answer model steps, added up';
  counter(registry, 'vitrine_agent_provider_seconds_total', secondsHelp, [], (set) => set({}, figures.providerSeconds));
  counter(registry, 'vitrine_agent_tokens_total', 'Tokens the provider counted, by direction (in, out)', ['direction'], (set) => {
    set({ direction: 'in' }, figures.tokensIn);
    set({ direction: 'out' }, figures.tokensOut);
  });
  counter(registry, 'vitrine_agent_provider_bytes_total', 'Bytes of the requests sent to the model provider, by room', ['room'], (set) => {
    for (const [room, bytes] of figures.providerBytes) set({ room }, bytes);
  });
  gauge(registry, 'vitrine_agent_sockets', 'Agent sockets open on this host', (g) => g.set(figures.sockets));
  gauge(registry, 'vitrine_agent_conversations', 'Conversations this host holds', (g) => g.set(figures.conversations));
}
