/**
 * Real-socket helpers for HTTP tests fastify's inject cannot express: a listening test app,
 * requests with any Host header, and raw bytes over node:net (malformed or slow requests).
 */
import http from 'node:http';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { CreateAppOptions } from '../../core/app.ts';
import { createTestApp } from './create-test-app.ts';

export interface ListeningApp {
  app: FastifyInstance;
  port: number;
  url: string;
}

/** createTestApp listening on 127.0.0.1, port 0. */
export async function listenTestApp(options: CreateAppOptions = {}): Promise<ListeningApp> {
  const app = await createTestApp(options);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address() as net.AddressInfo;
  return { app, port: address.port, url: `http://127.0.0.1:${address.port}` };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses the first response out of the bytes a server sent. */
export function parseRawResponse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: end === -1 ? '' : text.slice(end + 4) };
}

/** Writes `chunks` to a new connection and resolves with everything read until the server closes it. */
export function rawExchange(port: number, chunks: (string | Buffer)[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve(Buffer.concat(received).toString()) : reject(error)));
    socket.on('close', () => resolve(Buffer.concat(received).toString()));
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

/** A request with an explicit Host header (fetch does not allow setting one). */
export function requestWithHost(
  url: string,
  host: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers: { ...init.headers, host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
