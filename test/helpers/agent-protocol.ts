/**
 * @module agent-protocol
 * What the Ascribe-XR client accepts from the host, as a check over the frames a socket
 * received: each text frame a type the client knows with its fields of the right types, each
 * binary frame a `tts` frame with its header. An `error` frame counts too: a sequence the client
 * sends as it should draws none.
 */
import type { Received } from './agent-client.ts';

const isInt = (v: unknown) => Number.isInteger(v);
const isText = (v: unknown) => typeof v === 'string';

/** Each type the client knows, with the check of its fields. */
const FIELDS: Record<string, (f: Record<string, unknown>) => boolean> = {
  history: (f) =>
    Array.isArray(f.entries) &&
    (f.entries as { role: unknown; text: unknown }[]).every((e) => (e.role === 'user' || e.role === 'agent') && isText(e.text)) &&
    isInt(f.client_id),
  agent_text: (f) => isText(f.text),
  agent_text_done: () => true,
  tool_call: (f) => isText(f.request_id) && isText(f.name) && typeof f.args === 'object' && f.args !== null && isInt(f.executor),
  status: (f) => isText(f.text),
  turn_queued: (f) => isInt(f.position) && (f.position as number) > 0,
  speaker_bound: (f) => isInt(f.client_id),
  speaker_released: () => true,
  transcript: (f) => isText(f.text) && isInt(f.client_id) && f.final === true,
  agent_audio_end: (f) => typeof f.interrupted === 'boolean',
};

/** Every frame of `received` the client would not take as the protocol says, described. */
export function protocolProblems(received: readonly Received[]): string[] {
  const problems: string[] = [];
  for (const r of received) {
    if ('binary' in r) {
      const h = r.binary.header;
      const ok = h.kind === 'tts' && h.rate === 24000 && h.format === 's16le' && h.channels === 1 && isInt(h.seq) && r.binary.payload.length % 2 === 0;
      if (!ok) problems.push(`binary frame ${JSON.stringify(h)}`);
      continue;
    }
    const check = FIELDS[r.text.type];
    if (!check || !check(r.text)) problems.push(`${r.text.type}: ${JSON.stringify(r.text).slice(0, 200)}`);
  }
  return problems;
}
