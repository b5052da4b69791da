/**
 * The client's text/event-stream parser: fields, multi-line data, comments, ids that persist,
 * line ends (LF, CRLF, CR) including a CRLF split across chunks, any chunk boundary, a BOM,
 * and events with no data.
 */
import { describe, expect, it } from 'vitest';
import { SseParser, type SseMessage } from '../../core/client/sse-parser.ts';

/** Feeds `chunks` to a fresh parser and returns every event. */
function parse(...chunks: string[]): SseMessage[] {
  const parser = new SseParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
}

const STREAM =
  ': heartbeat\n\n' +
  'id: 0\nevent: progress\ndata: {"seq":0,"text":"a"}\n\n' +
  'event: progress\nid: 1\ndata: {"seq":1,\ndata: "text":"b"}\n\n' +
  'data:no space\n\n' +
  'event: done\ndata: {"status":"done"}\n\n';

const EXPECTED: SseMessage[] = [
  { event: 'progress', id: '0', data: '{"seq":0,"text":"a"}' },
  { event: 'progress', id: '1', data: '{"seq":1,\n"text":"b"}' },
  { event: 'message', id: '1', data: 'no space' },
  { event: 'done', id: '1', data: '{"status":"done"}' },
];

describe('SseParser', () => {
  it('reads event, id and data fields, joins data lines with \\n and skips comments', () => {
    expect(parse(STREAM)).toEqual(EXPECTED);
  });

  it('gives the same events whatever the chunk boundaries', () => {
    for (let size = 1; size <= 7; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < STREAM.length; i += size) chunks.push(STREAM.slice(i, i + size));
      expect(parse(...chunks), `chunks of ${size}`).toEqual(EXPECTED);
    }
    for (let cut = 0; cut <= STREAM.length; cut++) expect(parse(STREAM.slice(0, cut), STREAM.slice(cut))).toEqual(EXPECTED);
  });

  it('accepts CRLF and CR line ends, also a CRLF split between two chunks', () => {
    expect(parse(STREAM.replaceAll('\n', '\r\n'))).toEqual(EXPECTED);
    expect(parse(STREAM.replaceAll('\n', '\r'))).toEqual(EXPECTED);
    expect(parse('data: a\r', '\ndata: b\r', '\n\r', '\n')).toEqual([{ event: 'message', id: null, data: 'a\nb' }]);
    // A CR at a chunk's end followed by a non-LF character is one line end, not two.
    expect(parse('data: a\r', 'data: b\r\r')).toEqual([{ event: 'message', id: null, data: 'a\nb' }]);
  });

  it('keeps an incomplete event until its blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push('event: state\ndata: nu')).toEqual([]);
    expect(parser.push('ll\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'state', id: null, data: 'null' }]);
  });

  it('drops a leading BOM, events without data, unknown fields and ids holding NUL; keeps retry', () => {
    const parser = new SseParser();
    const events = parser.push('\uFEFFid: 7\nevent: ping\n\nfoo: bar\nid: x\u0000y\nretry: 1500\nretry: soon\ndata\n\n');
    // `data` with no colon is a data line with an empty value.
    expect(events).toEqual([{ event: 'message', id: '7', data: '' }]);
    expect(parser.lastEventId).toBe('7');
    expect(parser.retry).toBe(1500);
  });

  it('treats an empty id as a reset of the last event id', () => {
    expect(parse('id: 3\ndata: a\n\nid\ndata: b\n\n').map((e) => e.id)).toEqual(['3', '']);
  });
});
