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
import type { ModelMessage, ModelPart, ModelRequest, ModelStep } from './agent-model.ts';
import { ReplyParts } from './reply-parts.ts';
import { ProviderModel, type ClientOptions, type ProviderSettings } from './provider-model.ts';

/** Longest reply one step may write. */
const MAX_TOKENS = 4096;

const loadSdk = loadOnce(async () => (await import('@anthropic-ai/sdk')).default);

function partBlock(part: ModelPart): Anthropic.TextBlockParam | Anthropic.ImageBlockParam {
  if (part.type === 'text') return { type: 'text', text: part.text || ' ' };
  const media = (part.mime === 'image/png' ? 'image/png' : 'image/jpeg') as 'image/png' | 'image/jpeg';
  return { type: 'image', source: { type: 'base64', media_type: media, data: part.data.toString('base64') } };
}

/** The conversation in the Messages API's shapes (tool results are the user's turn there). */
function anthropicMessages(messages: readonly ModelMessage[]): Anthropic.MessageParam[] {
  return messages.map((message): Anthropic.MessageParam => {
    if (message.role === 'user') return { role: 'user', content: message.parts.map(partBlock) };
    if (message.role === 'assistant') {
      const content: Anthropic.ContentBlockParam[] = message.text ? [{ type: 'text', text: message.text }] : [];
      for (const call of message.calls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args });
      return { role: 'assistant', content: content.length > 0 ? content : [{ type: 'text', text: '(no answer)' }] };
    }
    const results: Anthropic.ToolResultBlockParam[] = message.results.map((result) => ({
      type: 'tool_result',
      tool_use_id: result.id,
      content: result.parts.map(partBlock),
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
async function readReply(events: AsyncIterable<Anthropic.RawMessageStreamEvent>, onText: (delta: string) => void): Promise<Omit<ModelStep, 'bytesSent'>> {
  const reply = new ReplyParts(onText);
  for await (const event of events) {
    if (event.type === 'content_block_delta') {
      const delta = event.delta;
      if (delta.type === 'text_delta') reply.say(delta.text);
      else if (delta.type === 'input_json_delta') reply.add([{ index: event.index, function: { arguments: delta.partial_json } }]);
    } else if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
      const block = event.content_block;
      reply.add([{ index: event.index, id: block.id, function: { name: block.name } }]);
    } else if (event.type === 'message_start') reply.usage.input = event.message.usage?.input_tokens ?? 0;
    else if (event.type === 'message_delta') reply.usage.output = event.usage?.output_tokens ?? 0;
  }
  return reply.step();
}

export class AnthropicModel extends ProviderModel<Anthropic> {
  constructor(settings: ProviderSettings) {
    super(settings, 'anthropic', 'ANTHROPIC_API_KEY');
  }

  protected async connect(key: string | undefined, options: ClientOptions): Promise<Anthropic> {
    const Sdk = await loadSdk();
    return new Sdk({ ...(key !== undefined ? { apiKey: key } : {}), ...options });
  }

  protected async reply(client: Anthropic, request: ModelRequest): Promise<Omit<ModelStep, 'bytesSent'>> {
    const stream = await client.messages.create(
      {
        model: this.name,
        max_tokens: MAX_TOKENS,
        system: request.system,
        messages: anthropicMessages(request.messages),
        tools: request.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
        })),
        stream: true,
      },
      { signal: request.signal },
    );
    return readReply(stream, request.onText);
  }
}
