/**
 * @module reply-parts
 * A reply put together as a provider streams it: its text handed on piece by piece, its tool calls
 * each by its index, its id and name once, its arguments (JSON) piece by piece, read once the
 * reply has ended. Both providers stream replies this way, in shapes of their own that their
 * model files translate.
 */
import type { ModelStep, ModelToolCall } from './agent-model.ts';
import { isRecord } from '../../wire/json-object.ts';

/** One piece of a call: its index in the reply, and what this piece says of it. */
export interface CallPiece {
  index: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

/** A reply as its pieces arrive. */
export class ReplyParts {
  readonly usage = { input: 0, output: 0 };
  #text = '';
  #calls: { id: string; name: string; args: string }[] = [];

  constructor(private readonly onText: (delta: string) => void) {}

  say(delta: string): void {
    this.#text += delta;
    this.onText(delta);
  }

  add(deltas: readonly CallPiece[] | undefined): void {
    for (const delta of deltas ?? []) {
      const call = (this.#calls[delta.index] ??= { id: '', name: '', args: '' });
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name += delta.function.name;
      if (delta.function?.arguments) call.args += delta.function.arguments;
    }
  }

  /** The step read so far (its request's bytes are counted by the model that sent it). */
  step(): Omit<ModelStep, 'bytesSent'> {
    return { text: this.#text, calls: this.#calls.filter(Boolean).map(parsedCall), usage: this.usage };
  }
}

function parsedCall(call: { id: string; name: string; args: string }, i: number): ModelToolCall {
  const id = call.id || `call-${i}`;
  try {
    const parsed: unknown = JSON.parse(call.args || '{}');
    if (isRecord(parsed)) return { id, name: call.name, args: parsed };
    return { id, name: call.name, args: {}, unparsed: `a JSON ${Array.isArray(parsed) ? 'array' : typeof parsed}` };
  } catch (error) {
    // Arguments that are not JSON are refused to the model, never run as none.
    return { id, name: call.name, args: {}, unparsed: (error as Error).message.slice(0, 200) };
  }
}
