/**
 * @module openai-model
 * The model behind any OpenAI-compatible chat-completions server (llama.cpp's server, Ollama,
 * vLLM, OpenAI itself), through the official `openai` client library: each step is one streamed
 * `POST <--agent-url>/chat/completions` with the tools as functions; text deltas are handed on
 * as they come, tool-call deltas are put together by their index. The key is OPENAI_API_KEY when
 * set; a local server without one gets no Authorization header at all. Pictures a tool answered
 * follow the tool's message as a user message (tool messages carry text only on most servers).
 */
import type OpenAI from 'openai';
import { loadOnce } from '../../loading/load-once.ts';
import type { ModelMessage, ModelPart, ModelRequest, ModelStep } from './agent-model.ts';
import { ReplyParts } from './reply-parts.ts';
import { ProviderModel, type ClientOptions, type ProviderSettings } from './provider-model.ts';

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ContentPart = OpenAI.Chat.Completions.ChatCompletionContentPart;

const loadSdk = loadOnce(async () => (await import('openai')).default);

function contentPart(part: ModelPart): ContentPart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  return { type: 'image_url', image_url: { url: `data:${part.mime};base64,${part.data.toString('base64')}` } };
}

function userContent(parts: readonly ModelPart[]): string | ContentPart[] {
  return parts.every((part) => part.type === 'text')
    ? parts.map((part) => (part as { text: string }).text).join('\n')
    : parts.map((part) => contentPart(part));
}

/** The conversation in chat-completions shapes. */
function openaiMessages(system: string, messages: readonly ModelMessage[]): Message[] {
  const out: Message[] = [{ role: 'system', content: system }];
  for (const message of messages) {
    if (message.role === 'user') out.push({ role: 'user', content: userContent(message.parts) });
    else if (message.role === 'assistant') {
      const calls = message.calls.map((call) => ({
        id: call.id,
        type: 'function' as const,
        function: { name: call.name, arguments: JSON.stringify(call.args) },
      }));
      out.push({ role: 'assistant', content: message.text || (calls.length > 0 ? null : '(no answer)'), ...(calls.length > 0 ? { tool_calls: calls } : {}) });
    } else {
      const pictures: ModelPart[] = [];
      for (const result of message.results) {
        const text = result.parts.filter((part) => part.type === 'text').map((part) => (part as { text: string }).text);
        const images = result.parts.filter((part) => part.type === 'image');
        pictures.push(...images);
        const said = [...text, ...(images.length > 0 ? ['(the picture follows)'] : [])].join('\n') || '(nothing)';
        out.push({ role: 'tool', tool_call_id: result.id, content: result.isError ? `error: ${said}` : said });
      }
      const shown = pictures.map((part) => contentPart(part));
      if (shown.length > 0) out.push({ role: 'user', content: [{ type: 'text', text: 'The picture the tool answered:' }, ...shown] });
    }
  }
  return out;
}

export class OpenAiModel extends ProviderModel<OpenAI> {
  constructor(settings: ProviderSettings) {
    super(settings, 'the chat-completions server', 'OPENAI_API_KEY');
  }

  protected async connect(key: string | undefined, options: ClientOptions): Promise<OpenAI> {
    const Sdk = await loadSdk();
    // Without a key the library still wants one: it is given a word and the header it would make is left out.
    const auth = key !== undefined ? { apiKey: key } : { apiKey: 'none', defaultHeaders: { Authorization: null } };
    return new Sdk({ ...auth, ...options });
  }

  protected async reply(client: OpenAI, request: ModelRequest): Promise<Omit<ModelStep, 'bytesSent'>> {
    const stream = await client.chat.completions.create(
      {
        model: this.name,
        messages: openaiMessages(request.system, request.messages),
        tools: request.tools.map((tool) => ({
          type: 'function' as const,
          function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
        })),
        stream: true,
        stream_options: { include_usage: true },
      },
      { signal: request.signal },
    );
    const reply = new ReplyParts(request.onText);
    for await (const chunk of stream) {
      const delta = chunk.choices?.[0]?.delta;
      if (delta?.content) reply.say(delta.content);
      reply.add(delta?.tool_calls);
      if (chunk.usage) Object.assign(reply.usage, { input: chunk.usage.prompt_tokens ?? 0, output: chunk.usage.completion_tokens ?? 0 });
    }
    return reply.step();
  }
}
