/**
 * @module scripted-speech
 * Speech services on loopback for the agent's voice tests and benchmarks, speaking OpenAI's audio
 * routes: `POST /v1/audio/transcriptions` (a multipart form with a WAV `file`) answers
 * `{"text"}` from the test's script, given the WAV's rate and seconds; `POST /v1/audio/speech`
 * (`{"input", "response_format": "pcm"}`) answers raw 24 kHz 16-bit PCM, 240 samples per
 * character, after the test's `hold` if it set one. Every request is kept. A test may make a
 * request misbehave (`misbehave`): never answer (`hang`), refuse with a 500 (`fail`), send its
 * headers and then nothing (`stall`), or answer without end (`flood`: a transcript or speech that
 * never stops; `flood-refusal`: a 500 whose body never stops), until the host lets go.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeardWav {
  rate: number;
  seconds: number;
  bytes: number;
}

/** How a request misbehaves. */
export type SpeechMisbehaviour = 'hang' | 'fail' | 'stall' | 'flood' | 'flood-refusal';

/** A request as `misbehave` is asked about it: its route, the utterance's seconds, the text to speak. */
export interface SpeechAsked {
  route: 'transcriptions' | 'speech';
  seconds: number;
  input: string;
}

export interface ScriptedSpeech {
  url: string;
  transcriptions: HeardWav[];
  spoken: string[];
  /** What a transcription answers (default: `heard <seconds> s`). */
  hear(script: (wav: HeardWav) => string): void;
  /** Holds each speech answer until the promise this gives resolves (null: answer at once). */
  holdSpeech(hold: (() => Promise<void>) | null): void;
  /** How each request misbehaves (null: it answers as scripted); null turns it off. */
  misbehave(script: ((asked: SpeechAsked) => SpeechMisbehaviour | null) | null): void;
  /** Bytes written by flooding answers so far. */
  readonly flooded: number;
  close(): Promise<void>;
}

/** Most bytes one flooding answer writes (a host that reads it all would hold about this much). */
const FLOOD_LIMIT = 1024 * 1024 * 1024;

/** Writes `piece` again and again, as fast as the host reads, until it lets go or the limit. */
function flood(res: ServerResponse, head: string, piece: Buffer, count: (bytes: number) => void): void {
  let written = 0;
  res.write(head);
  const more = () => {
    while (!res.destroyed && written < FLOOD_LIMIT) {
      written += piece.length;
      count(piece.length);
      if (!res.write(piece)) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end();
  };
  res.on('close', () => res.removeAllListeners('drain'));
  more();
}

/** The WAV file of a multipart body: from its RIFF to the form's next boundary. */
function wavIn(body: Buffer, contentType: string): HeardWav {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType)?.[2] ?? '';
  const start = body.indexOf('RIFF');
  const end = boundary ? body.indexOf(`\r\n--${boundary}`, start) : body.length;
  const wav = body.subarray(start, end < 0 ? body.length : end);
  const rate = wav.readUInt32LE(24);
  const dataBytes = wav.readUInt32LE(40);
  return { rate, seconds: dataBytes / 2 / rate, bytes: wav.length };
}

export async function startScriptedSpeech(): Promise<ScriptedSpeech> {
  const transcriptions: HeardWav[] = [];
  const spoken: string[] = [];
  let hear = (wav: HeardWav) => `heard ${wav.seconds.toFixed(1)} s`;
  let hold: (() => Promise<void>) | null = null;
  let misbehave: ((asked: SpeechAsked) => SpeechMisbehaviour | null) | null = null;
  let flooded = 0;
  /** Misbehaves as the script says; false when the request is to be answered as scripted. */
  const misbehaved = (res: ServerResponse, asked: SpeechAsked): boolean => {
    const how = misbehave?.(asked) ?? null;
    const count = (bytes: number) => void (flooded += bytes);
    if (how === null) return false;
    if (how === 'hang') return true;
    if (how === 'fail') return res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"scripted failure"}'), true;
    if (how === 'flood-refusal') {
      res.writeHead(500, { 'content-type': 'text/plain' });
      flood(res, 'scripted refusal: ', Buffer.alloc(64 * 1024, 0x78), count);
      return true;
    }
    const pcm = asked.route === 'speech';
    res.writeHead(200, { 'content-type': pcm ? 'audio/pcm' : 'application/json' });
    if (how === 'stall') return res.write(pcm ? Buffer.alloc(64) : '{"text": "'), true;
    flood(res, pcm ? '' : '{"text": "', Buffer.alloc(64 * 1024, pcm ? 1 : 0x61), count);
    return true;
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        if (req.url === '/v1/audio/transcriptions') {
          const wav = wavIn(body, req.headers['content-type'] ?? '');
          transcriptions.push(wav);
          if (misbehaved(res, { route: 'transcriptions', seconds: wav.seconds, input: '' })) return;
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ text: hear(wav) }));
        }
        if (req.url === '/v1/audio/speech') {
          const { input } = JSON.parse(body.toString('utf8')) as { input: string };
          spoken.push(input);
          if (misbehaved(res, { route: 'speech', seconds: 0, input })) return;
          await hold?.();
          res.writeHead(200, { 'content-type': 'audio/pcm' });
          return res.end(Buffer.alloc(input.length * 240 * 2, 1));
        }
        res.writeHead(404).end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    transcriptions,
    spoken,
    hear: (script) => void (hear = script),
    holdSpeech: (next) => void (hold = next),
    misbehave: (script) => void (misbehave = script),
    get flooded() {
      return flooded;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
