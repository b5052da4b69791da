/**
 * @module anthropic-model
 * The model behind the Anthropic Messages API, through its official client library: each step
 * is one streamed `POST <--agent-url>/v1/messages` (the library's default URL when none is
 * given) with the tools as the API defines them; the reply's text is handed on as it streams,
 * and its tool_use blocks become the step's calls. The key comes from ANTHROPIC_API_KEY. The
 * library is loaded by the first turn, not at start. No retries: a refusal reaches the room at
 * once, in the provider's words.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { loadOnce } from '../../loading/load-once.ts';
import type { AgentModel, ModelMessage, ModelPart, ModelRequest, ModelStep } from './agent-model.ts';
import { CallParts } from './call-parts.ts';
import { pictureFetch, PictureSlots, plainBase64, type Base64 } from './picture-body.ts';
import { providerAccess, type ProviderAccess, type ProviderSettings } from './provider-access.ts';
import { providerRefusal } from './provider-refusal.ts';

/** Longest reply one step may write. */
const MAX_TOKENS = 4096;

const loadSdk = loadOnce(async () => (await import('@anthropic-ai/sdk')).default);

type Block = Anthropic.ContentBlockParam;
type ToolResultBlock = Anthropic.ToolResultBlockParam;

function partBlock(part: ModelPart, base64: Base64): Anthropic.TextBlockParam | Anthropic.ImageBlockParam {
  if (part.type === 'text') return { type: 'text', text: part.text || ' ' };
  const media = (part.mime === 'image/png' ? 'image/png' : 'image/jpeg') as 'image/png' | 'image/jpeg';
  return { type: 'image', source: { type: 'base64', media_type: media, data: base64(part.data) } };
}

/** The conversation in the Messages API's shapes (tool results are the user's turn there). */
export function anthropicMessages(messages: readonly ModelMessage[], base64: Base64 = plainBase64): Anthropic.MessageParam[] {
  const block = (part: ModelPart) => partBlock(part, base64);
  return messages.map((message): Anthropic.MessageParam => {
    if (message.role === 'user') return { role: 'user', content: message.parts.map(block) };
    if (message.role === 'assistant') {
      const content: Block[] = message.text ? [{ type: 'text', text: message.text }] : [];
      for (const call of message.calls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args });
      return { role: 'assistant', content: content.length > 0 ? content : [{ type: 'text', text: '(no answer)' }] };
    }
    const results: ToolResultBlock[] = message.results.map((result) => ({
      type: 'tool_result',
      tool_use_id: result.id,
      content: result.parts.map(block),
      ...(result.isError ? { is_error: true } : {}),
    }));
    return { role: 'user', content: results };
  });
}

/**
 * A streamed reply read from its events as they come: text handed on at once, tool calls put
 * together from their pieces, the tokens counted. (The library's message-stream helper would also
 * build a snapshot of the whole message at every event and parse a tool's input at every piece.)
 */
async function readReply(events: AsyncIterable<Anthropic.RawMessageStreamEvent>, onText: (delta: string) => void): Promise<ModelStep> {
  let text = '';
  const calls = new CallParts();
  const usage = { input: 0, output: 0 };
  for await (const event of events) {
    if (event.type === 'content_block_delta') {
      const delta = event.delta;
      if (delta.type === 'text_delta') {
        text += delta.text;
        onText(delta.text);
      } else if (delta.type === 'input_json_delta') calls.add([{ index: event.index, function: { arguments: delta.partial_json } }]);
    } else if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
      const block = event.content_block;
      calls.add([{ index: event.index, id: block.id, function: { name: block.name } }]);
    } else if (event.type === 'message_start') usage.input = event.message.usage?.input_tokens ?? 0;
    else if (event.type === 'message_delta') usage.output = event.usage?.output_tokens ?? 0;
  }
  return { text, calls: calls.calls(), usage };
}

export class AnthropicModel implements AgentModel {
  readonly name: string;
  #access: ProviderAccess;
  #client: Anthropic | null = null;
  #pictures = new PictureSlots();

  constructor(settings: ProviderSettings) {
    this.name = settings.model;
    this.#access = providerAccess(settings, 'ANTHROPIC_API_KEY');
  }

  async #connect(): Promise<Anthropic> {
    const Sdk = await loadSdk();
    const { key, client } = this.#access;
    this.#client ??= new Sdk({ ...(key !== undefined ? { apiKey: key } : {}), ...client, fetch: pictureFetch(this.#pictures) });
    return this.#client;
  }

  async step(request: ModelRequest): Promise<ModelStep> {
    const { signal } = request;
    const pictures = this.#pictures.request();
    try {
      const client = await this.#connect();
      const stream = await client.messages.create(
        {
          model: this.name,
          max_tokens: MAX_TOKENS,
          system: request.system,
          messages: anthropicMessages(request.messages, pictures.base64),
          tools: request.tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
          })),
          stream: true,
        },
        { signal },
      );
      return await readReply(stream, request.onText);
    } catch (error) {
      throw providerRefusal('anthropic', error, signal, this.#access.redact);
    } finally {
      pictures.release();
    }
  }
}
