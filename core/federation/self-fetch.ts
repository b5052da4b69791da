/**
 * @module self-fetch
 * A worker serves a specimen's thumbnail or static data to its relay by asking its own HTTP
 * server on loopback: the same route logic (files, `.npy` envelopes, data URIs, placeholder),
 * the same headers, and a body that streams from disk instead of being buffered.
 */
import http, { type IncomingMessage } from 'node:http';
import { type HostError, createHostError } from '../errors.ts';
import { fromWireError } from './wire-error.ts';

export interface SelfResponse {
  contentType: string;
  length: number | null;
  fileName: string | null;
  body: IncomingMessage;
}

/** `filename="..."` of a Content-Disposition value (the ASCII form the host always writes). */
function fileNameOf(header: string | undefined): string | null {
  const match = header ? /filename="((?:[^"\\]|\\.)*)"/.exec(header) : null;
  return match ? match[1]!.replace(/\\(.)/g, '$1') : null;
}

async function readAll(body: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of body) text += String(chunk);
  return text;
}

export async function selfFetch(origin: string, path: string, signal: AbortSignal): Promise<SelfResponse> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = http.get(new URL(path, origin), { signal }, resolve);
    request.once('error', reject);
  });
  if (response.statusCode !== 200) {
    const text = await readAll(response).catch(() => '');
    let parsed: { code?: unknown; detail?: unknown } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // not a JSON error body
    }
    const message = typeof parsed.detail === 'string' ? parsed.detail : `HTTP ${response.statusCode}`;
    const code = typeof parsed.code === 'string' ? parsed.code : '';
    const error: HostError = code ? fromWireError('self', { status: response.statusCode ?? 500, code, message }) : createHostError('SPC_ERR_BAD_REQUEST', message);
    throw error;
  }
  const length = response.headers['content-length'];
  return {
    contentType: response.headers['content-type'] ?? 'application/octet-stream',
    length: length === undefined ? null : Number(length),
    fileName: fileNameOf(response.headers['content-disposition']),
    body: response,
  };
}
