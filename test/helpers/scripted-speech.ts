/**
 * @module scripted-speech
 * Speech services on loopback for the agent's voice tests and benchmarks, speaking OpenAI's audio
 * routes: `POST /v1/audio/transcriptions` (a multipart form with a WAV `file`) answers
 * `{"text"}` from the test's script, given the WAV's rate and seconds; `POST /v1/audio/speech`
 * (`{"input", "response_format": "pcm"}`) answers raw 24 kHz 16-bit PCM, 240 samples per
 * character, after the test's `hold` if it set one. Every request is kept.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeardWav {
  rate: number;
  seconds: number;
  bytes: number;
}

export interface ScriptedSpeech {
  url: string;
  transcriptions: HeardWav[];
  spoken: string[];
  /** What a transcription answers (default: `heard <seconds> s`). */
  hear(script: (wav: HeardWav) => string): void;
  /** Holds each speech answer until the promise this gives resolves (null: answer at once). */
  holdSpeech(hold: (() => Promise<void>) | null): void;
  close(): Promise<void>;
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
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        if (req.url === '/v1/audio/transcriptions') {
          const wav = wavIn(body, req.headers['content-type'] ?? '');
          transcriptions.push(wav);
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ text: hear(wav) }));
        }
        if (req.url === '/v1/audio/speech') {
          const { input } = JSON.parse(body.toString('utf8')) as { input: string };
          spoken.push(input);
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
