/**
 * @module context-bound
 * How much of a room's conversation one request to the model carries: at most a number of bytes
 * (`--agent-context-bytes`), counted as the words, pictures and tool arguments the request holds.
 * Whole turns are left out, oldest first (a turn is a user's message and what followed it, so no
 * tool result is ever sent without its call); the turn under way is always sent. When turns were
 * left out, the first message sent opens with a note saying so, so the model does not take the
 * shortened conversation for the whole.
 */
import type { ModelMessage, ModelPart } from './model/agent-model.ts';

/** The note that opens a request some turns were left out of. */
export const LEFT_OUT_NOTE = '(Earlier turns of this conversation are left out here to bound its size; ask the people in the room if you need them.)';

const weights = new WeakMap<ModelMessage, number>();

function partBytes(part: ModelPart): number {
  return part.type === 'text' ? Buffer.byteLength(part.text) : part.data.length;
}

/** Bytes `message` weighs in a request (made once per message: messages are never changed once made). */
export function messageBytes(message: ModelMessage): number {
  let bytes = weights.get(message);
  if (bytes !== undefined) return bytes;
  if (message.role === 'user') bytes = message.parts.reduce((sum, part) => sum + partBytes(part), 0);
  else if (message.role === 'assistant') {
    bytes = Buffer.byteLength(message.text) + message.calls.reduce((sum, c) => sum + Buffer.byteLength(JSON.stringify(c.args)), 0);
  }
  else bytes = message.results.reduce((sum, r) => sum + r.parts.reduce((n, part) => n + partBytes(part), 0), 0);
  weights.set(message, bytes);
  return bytes;
}

/**
 * The index from which `messages` fit in `bytes`, the messages from `keepFrom` on always kept:
 * the start of the oldest turn that fits with every newer one.
 */
export function firstFitting(messages: readonly ModelMessage[], keepFrom: number, bytes: number): number {
  let total = 0;
  for (let i = keepFrom; i < messages.length; i++) total += messageBytes(messages[i]!);
  let first = keepFrom;
  let turn = 0;
  for (let i = keepFrom - 1; i >= 0; i--) {
    turn += messageBytes(messages[i]!);
    if (messages[i]!.role !== 'user') continue;
    if (total + turn > bytes) break;
    total += turn;
    turn = 0;
    first = i;
  }
  return first;
}

/** What a request carries of `messages`: from {@link firstFitting} on, opened by the note when anything is left out. */
export function fitContext(messages: readonly ModelMessage[], keepFrom: number, bytes: number, leftOutBefore: boolean): ModelMessage[] {
  const first = firstFitting(messages, keepFrom, bytes);
  const sent = messages.slice(first);
  const opening = sent[0];
  if ((first === 0 && !leftOutBefore) || opening?.role !== 'user') return sent;
  sent[0] = { role: 'user', parts: [{ type: 'text', text: LEFT_OUT_NOTE }, ...opening.parts] };
  return sent;
}
