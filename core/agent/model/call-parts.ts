/**
 * @module call-parts
 * A reply's tool calls put together as a provider streams them: each call by its index, its id
 * and name once, its arguments (JSON) piece by piece, read once the reply has ended. Both
 * providers stream calls this way, in shapes of their own that their model files translate.
 */
import type { ModelToolCall } from './agent-model.ts';

/** One piece of a call: its index in the reply, and what this piece says of it. */
export interface CallPiece {
  index: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

/** Tool calls as their pieces arrive. */
export class CallParts {
  #calls: { id: string; name: string; args: string }[] = [];

  add(deltas: readonly CallPiece[] | undefined): void {
    for (const delta of deltas ?? []) {
      const call = (this.#calls[delta.index] ??= { id: '', name: '', args: '' });
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name += delta.function.name;
      if (delta.function?.arguments) call.args += delta.function.arguments;
    }
  }

  calls(): ModelToolCall[] {
    return this.#calls.filter(Boolean).map((call, i) => {
      let args: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(call.args || '{}');
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
      } catch {
        // Arguments that are not JSON reach the tool as none: it answers what it is missing.
      }
      return { id: call.id || `call-${i}`, name: call.name, args };
    });
  }
}
