/**
 * `npm run bench hardening`: the limits that protect a host from one anonymous client.
 * 1. Slow bodies: 50 connections each sending a POST body one byte every 2 s against a host
 *    with `--request-timeout 5`: how many get 408 and when the last one is closed.
 * 2. Relay frames before the hello: ten unauthenticated WebSocket clients each send a 60 MB
 *    frame to a relay; its resident memory before and after.
 */
import net from 'node:net';
import WebSocket from 'ws';
import { spawnHost } from '../helpers/spawn-host.ts';
import { fmt } from './host-helpers.ts';
import { rssMiB } from '../helpers/process-rss.ts';


function slowBody(port: number, started: number): Promise<{ status: number; seconds: number }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const drip = setInterval(() => socket.write('a'), 2000);
    socket.on('data', (d: Buffer) => (text += d.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(drip);
      resolve({ status: Number(text.split(' ')[1] ?? 0), seconds: (performance.now() - started) / 1000 });
    });
    socket.write('POST /api/processing/invoke HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
  });
}

async function slowBodies(lines: string[]): Promise<void> {
  const host = await spawnHost(['--port', '0', '--plugins', 'none', '--specimens', 'none', '--log-level', 'warn', '--request-timeout', '5']);
  try {
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 50 }, () => slowBody(host.port, started)));
    const answered = results.filter((r) => r.status === 408).length;
    lines.push(
      `slow bodies (1 byte / 2 s, --request-timeout 5): ${answered}/50 answered 408 and closed; last closed after ` +
      `${fmt(Math.max(...results.map((r) => r.seconds)), 1)} s`,
    );
  } finally {
    await host.stop('SIGKILL');
  }
}

async function bigFrames(lines: string[]): Promise<void> {
  const host = await spawnHost(['--port', '0', '--plugins', 'none', '--specimens', 'none', '--log-level', 'warn', '--relay', '--token', 'secret']);
  try {
    const before = rssMiB(host.child.pid!);
    const frame = Buffer.alloc(60 * 1024 * 1024, 1);
    const codes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => new Promise<number>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws/federation/probe-${i}`);
        ws.on('error', () => {});
        ws.on('open', () => ws.send(frame));
        ws.on('close', (code) => resolve(code));
      })),
    );
    await new Promise((r) => setTimeout(r, 2000));
    lines.push(
      `relay, ten unauthenticated 60 MB frames: closed with ${[...new Set(codes)].join(', ')}; RSS ${fmt(before, 0)} MiB before, ` +
      `${fmt(rssMiB(host.child.pid!), 0)} MiB after`,
    );
  } finally {
    await host.stop('SIGKILL');
  }
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [];
  await slowBodies(lines);
  await bigFrames(lines);
  return { name: 'hardening', lines };
}
