/**
 * @module closed-room-setup
 * A room of ada's for the closed-room page tests: an 8³ array published for it, two layers (the
 * shape function `ball`, active, and the array `scan`), then closed with `access`.
 */
import { expect } from 'vitest';
import { bearer } from '../people/people-helpers.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';

const JSON_TYPE = { 'content-type': 'application/json' };

export async function closedRoom(base: string, adaToken: string, room: string, access: Record<string, unknown>): Promise<void> {
  const ada = bearer(adaToken);
  const scan = `${base}/api/specimens/${room}.scan?filename=scan.npy&room=${room}`;
  const array = { method: 'PUT', headers: { ...ada, 'content-type': 'application/octet-stream' }, body: Uint8Array.from(npyBytes([8, 8, 8])) };
  expect((await fetch(scan, array)).status).toBe(201);
  const layers = [
    { id: 'ball', source: { function: 'shape', params: { segments: 12 } } },
    { id: 'scan', source: { specimen: `${room}.scan` }, opacity: 0.5 },
  ];
  const scene = { method: 'PUT', headers: { ...ada, ...JSON_TYPE }, body: JSON.stringify({ layers, active: 'ball' }) };
  expect((await fetch(`${base}/api/rooms/${room}/scene`, scene)).status).toBe(200);
  const closing = { method: 'PUT', headers: { ...ada, ...JSON_TYPE }, body: JSON.stringify(access) };
  expect((await fetch(`${base}/api/rooms/${room}/access`, closing)).status).toBe(200);
}
