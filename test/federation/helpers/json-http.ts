/**
 * @module json-http
 * JSON over HTTP for the federation tests: a GET or a POST answered with its status and its
 * parsed body.
 */

export type Json = Record<string, unknown>;

export async function getJson(url: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Json };
}

export async function postJson(url: string, payload: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
  return { status: res.status, body: (await res.json()) as Json };
}
