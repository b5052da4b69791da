/**
 * @module model-answers.test
 * What each provider's model makes of answers that are not what a step asked for, against a
 * scripted server on loopback in that provider's wire format: a 200 that is not an event stream
 * (JSON from a server that ignored `stream`, a proxy's HTML page) is a refusal naming it, not an
 * empty reply; tool arguments that do not parse as a JSON object come back marked, so the call is
 * refused to the model rather than run with none; a redirect is not followed, so the key never
 * travels to where it points.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentModel, ModelRequest } from '../../core/agent/model/agent-model.ts';
import { ModelRefusal } from '../../core/agent/model/agent-model.ts';
import { AnthropicModel } from '../../core/agent/model/anthropic-model.ts';
import { OpenAiModel } from '../../core/agent/model/openai-model.ts';
import { startScriptedModel, type Provider, type ScriptedModel } from '../helpers/scripted-model.ts';

const servers = new Map<Provider, ScriptedModel>();
beforeAll(async () => {
  for (const provider of ['anthropic', 'openai'] as const) servers.set(provider, await startScriptedModel(provider));
});
afterAll(() => Promise.all([...servers.values()].map((s) => s.close())));

function modelOf(provider: Provider, url = servers.get(provider)!.url): AgentModel {
  const settings = { model: 'scripted', url, timeoutMs: 10_000, env: { ANTHROPIC_API_KEY: 'scripted-key' } };
  return provider === 'anthropic' ? new AnthropicModel(settings) : new OpenAiModel(settings);
}

function request(): ModelRequest {
  return {
    system: 'You are scripted.',
    messages: [{ role: 'user', parts: [{ type: 'text', text: 'hello' }] }],
    tools: [{ name: 'list_specimens', description: 'Lists specimens.', inputSchema: { type: 'object', properties: {} } }],
    signal: new AbortController().signal,
    onText: () => {},
  };
}

const PROVIDER_WORDS = { anthropic: 'anthropic', openai: 'the chat-completions server' } as const;

describe.each(['anthropic', 'openai'] as const)('a %s model', (provider) => {
  it.each([
    ['application/json', '{"id":"x","choices":[{"message":{"content":"a whole answer"}}]}'],
    ['text/html; charset=utf-8', '<html><body>Bad gateway page</body></html>'],
  ])('refuses a 200 of %s, naming it', async (contentType, body) => {
    servers.get(provider)!.answer(() => ({ plain: { contentType, body } }));
    const step = modelOf(provider).step(request());
    await expect(step).rejects.toBeInstanceOf(ModelRefusal);
    await expect(step).rejects.toThrow(`${PROVIDER_WORDS[provider]} answered 200 with ${contentType.split(';')[0]}, not the event stream asked for`);
  });

  it('marks arguments that do not parse, and reads those that do', async () => {
    servers.get(provider)!.answer(() => ({
      calls: [
        { name: 'list_specimens', args: {}, raw: '{"tag": ' },
        { name: 'list_specimens', args: { tag: 'brain' } },
      ],
    }));
    const { calls } = await modelOf(provider).step(request());
    expect(calls[0]).toMatchObject({ name: 'list_specimens', args: {} });
    expect(calls[0]!.unparsed).toBeTruthy();
    expect(calls[1]).toMatchObject({ name: 'list_specimens', args: { tag: 'brain' } });
    expect(calls[1]!.unparsed).toBeUndefined();
  });
});

/** A server on loopback that answers every request with `answer`, counting the requests and keeping their headers. */
async function plainServer(answer: (res: import('node:http').ServerResponse) => void) {
  const seen: import('node:http').IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume().on('end', () => answer(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise((r) => server.close(r)) };
}

describe.each(['anthropic', 'openai'] as const)('a %s model behind a redirect', (provider) => {
  it('refuses it without following, so the key stays where it was sent', async () => {
    const elsewhere = await plainServer((res) => res.writeHead(500).end());
    const redirecting = await plainServer((res) => res.writeHead(307, { location: `${elsewhere.url}/v1/steal` }).end());
    try {
      const step = modelOf(provider, `${redirecting.url}/v1`).step(request());
      await expect(step).rejects.toBeInstanceOf(ModelRefusal);
      await expect(step).rejects.toThrow(/redirect/);
      expect(redirecting.seen).toHaveLength(1);
      expect(elsewhere.seen).toHaveLength(0);
    } finally {
      await Promise.all([elsewhere.close(), redirecting.close()]);
    }
  });
});
