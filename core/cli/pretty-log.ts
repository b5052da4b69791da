/**
 * @module pretty-log
 * Log lines for a person at a terminal. The host logs JSON lines (what log collectors read);
 * when standard error is a terminal, `vitrine serve` passes them through this stream, which
 * writes `HH:MM:SS LEVEL message` instead, the level coloured, with an error's stack indented
 * under it. A line that is not JSON passes through unchanged. Fastify's own "Server
 * listening at" record is left out: the command prints its `listening on` line itself, and a
 * person should read it once.
 */
import { Writable } from 'node:stream';

const LEVELS: Record<number, { name: string; colour: string }> = {
  10: { name: 'TRACE', colour: '\x1b[90m' },
  20: { name: 'DEBUG', colour: '\x1b[90m' },
  30: { name: 'INFO ', colour: '\x1b[36m' },
  40: { name: 'WARN ', colour: '\x1b[33m' },
  50: { name: 'ERROR', colour: '\x1b[31m' },
  60: { name: 'FATAL', colour: '\x1b[41m' },
};
const RESET = '\x1b[0m';

interface LogRecord {
  level?: number;
  time?: number;
  msg?: string;
  err?: { stack?: string; message?: string };
}

/** Fastify's record of each address it listens on. */
const FASTIFY_LISTENING = /^Server listening at /;

/** One JSON log line as a terminal line (with its newline), or '' for a line left out. */
export function prettyLine(line: string, colour: boolean): string {
  let record: LogRecord;
  try {
    record = JSON.parse(line) as LogRecord;
  } catch {
    return `${line}\n`;
  }
  if (FASTIFY_LISTENING.test(record.msg ?? '')) return '';
  const level = LEVELS[record.level ?? 30] ?? { name: String(record.level), colour: '' };
  const time = new Date(record.time ?? Date.now()).toTimeString().slice(0, 8);
  const name = colour ? `${level.colour}${level.name}${RESET}` : level.name;
  let text = `${time} ${name} ${record.msg ?? ''}\n`;
  const stack = record.err?.stack ?? record.err?.message;
  if (stack) text += `${stack.replace(/^/gm, '    ')}\n`;
  return text;
}

/** A stream that takes JSON log lines and writes terminal lines to `out`. */
export function prettyLogStream(out: NodeJS.WriteStream = process.stderr): Writable {
  let pending = '';
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      pending += chunk.toString();
      let end: number;
      while ((end = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        if (line.trim() === '') continue;
        const text = prettyLine(line, out.isTTY === true);
        if (text !== '') out.write(text);
      }
      done();
    },
  });
}
