/**
 * @module agent-model
 * The seam between a room's conversation and the model behind it: one step of a turn sends the
 * conversation so far and the tools, streams the reply's text as it comes, and answers the text
 * and the tool calls the model asked for. Each provider (the Anthropic Messages API, an
 * OpenAI-compatible chat-completions server) translates these words into its own wire format in
 * a file of its own; the conversation never sees a provider's shapes.
 */

/** One piece of a message: text, or a picture (a headset's screenshot, a room's image). */
export type ModelPart = { type: 'text'; text: string } | { type: 'image'; mime: string; data: Buffer };

/** A tool the model may call. */
export interface ModelTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** A tool call the model asked for. */
export interface ModelToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** Why the arguments the model wrote could not be read as an object (they are then `{}` and the call is not run). */
  unparsed?: string;
}

/** What a tool call answered, handed back to the model. */
export interface ModelToolResult {
  id: string;
  name: string;
  parts: ModelPart[];
  isError: boolean;
}

export type ModelMessage =
  | { role: 'user'; parts: ModelPart[] }
  | { role: 'assistant'; text: string; calls: ModelToolCall[] }
  | { role: 'tool'; results: ModelToolResult[] };

/** What one step answered: the text said (also streamed) and the tools asked for. */
export interface ModelStep {
  text: string;
  calls: ModelToolCall[];
  /** Tokens the step used, as the provider counted them. */
  usage: { input: number; output: number };
  /** Bytes of the request sent to the provider for this step. */
  bytesSent: number;
}

export interface ModelRequest {
  system: string;
  messages: readonly ModelMessage[];
  tools: readonly ModelTool[];
  signal: AbortSignal;
  /** Each piece of the reply's text as it streams. */
  onText(delta: string): void;
}

export interface AgentModel {
  /** The model's name (`--agent-model`). */
  readonly name: string;
  step(request: ModelRequest): Promise<ModelStep>;
}

/**
 * A provider refused or failed (401, 429, 5xx, a timeout, a broken stream): its own words, for the
 * `error` frame, never carrying a credential.
 */
export class ModelRefusal extends Error {}
