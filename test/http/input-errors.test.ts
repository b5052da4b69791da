/**
 * Every refusal of a malformed request input answers the exact catalogued body: the status,
 * the readable detail and the code. The inputs are declared once on their routes (the same
 * declarations /openapi.json shows), so this table keeps their wording from drifting.
 */
import { describe, expect, it } from 'vitest';
import { addDynamicSpecimen, createTestApp } from '../helpers/create-test-app.ts';

interface Case {
  method?: 'GET' | 'POST';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  status: number;
  detail: string;
  code: string;
}

const LONG = 'r'.repeat(257);
const bad = (detail: string): Pick<Case, 'status' | 'detail' | 'code'> => ({ status: 400, detail, code: 'SPC_ERR_BAD_REQUEST' });
const notObject = (got: string): Pick<Case, 'status' | 'detail' | 'code'> => ({
  status: 400,
  detail: `params must be a JSON object, got ${got}`,
  code: 'SPC_ERR_PARAMS_NOT_OBJECT',
});
const since = (got: string): Pick<Case, 'status' | 'detail' | 'code'> => ({
  status: 400,
  detail: `since must be an integer, got '${got}'`,
  code: 'SPC_ERR_SINCE_INVALID',
});

const INVOKE = '/api/processing/invoke';
const START = '/api/specimens/sq/start';
const DATA = '/api/specimens/sq/data';

const CASES: Case[] = [
  { method: 'POST', url: INVOKE, ...bad('function_name (a string) is required') },
  { method: 'POST', url: INVOKE, payload: [], ...bad('request body must be a JSON object') },
  { method: 'POST', url: INVOKE, payload: 7, ...bad('request body must be a JSON object') },
  { method: 'POST', url: INVOKE, payload: { function_name: 5 }, ...bad('function_name (a string) is required') },
  { method: 'POST', url: INVOKE, payload: { function_name: '' }, ...bad('function_name (a string) is required') },
  { method: 'POST', url: INVOKE, payload: { function_name: 'square', args: 'x' }, ...bad('args must be an array') },
  { method: 'POST', url: INVOKE, payload: { function_name: 'square', args: {} }, ...bad('args must be an array') },
  { method: 'POST', url: INVOKE, payload: { function_name: 'square', kwargs: [1] }, ...bad('kwargs must be a JSON object') },
  { method: 'POST', url: INVOKE, payload: { function_name: 'square', kwargs: 5 }, ...bad('kwargs must be a JSON object') },
  { method: 'POST', url: INVOKE, payload: { function_name: 'square', room_id: 5 }, ...bad('room_id must be a string') },
  { method: 'POST', url: INVOKE, payload: { function_name: 'square', room_id: LONG }, ...bad('room_id is longer than 256 characters') },
  {
    method: 'POST',
    url: INVOKE,
    payload: { function_name: 'nope' },
    status: 404,
    detail: "function 'nope' is not registered",
    code: 'SPC_ERR_FUNCTION_NOT_FOUND',
  },
  { method: 'POST', url: START, payload: [], ...bad('request body must be a JSON object') },
  { method: 'POST', url: START, payload: { params: 5 }, ...notObject('a number') },
  { method: 'POST', url: START, payload: { params: null }, ...notObject('null') },
  { method: 'POST', url: START, payload: { params: [] }, ...notObject('an array') },
  { method: 'POST', url: START, payload: { params: 'x' }, ...notObject('a string') },
  { method: 'POST', url: START, payload: { room_id: true }, ...bad('room_id must be a string') },
  { method: 'POST', url: DATA, payload: ['x'], ...bad('request body must be a JSON object') },
  { method: 'POST', url: DATA, payload: { params: false }, ...notObject('a boolean') },
  { method: 'POST', url: DATA, payload: { room_id: LONG }, ...bad('room_id is longer than 256 characters') },
  {
    method: 'POST',
    url: DATA,
    payload: { delivery: 5 },
    status: 400,
    detail: "delivery option 'delivery' is 5; expected a JSON object of delivery options",
    code: 'SPC_ERR_DELIVERY_OPTION_INVALID',
  },
  {
    method: 'POST',
    url: DATA,
    payload: { delivery: [] },
    status: 400,
    detail: "delivery option 'delivery' is []; expected a JSON object of delivery options",
    code: 'SPC_ERR_DELIVERY_OPTION_INVALID',
  },
  { url: `${DATA}?params=%7B%7D&params=%7B%7D`, ...bad('params may be given only once') },
  { url: `${DATA}?room_id=a&room_id=b`, ...bad('room_id must be a string') },
  { url: `${DATA}?room_id=${LONG}`, ...bad('room_id is longer than 256 characters') },
  { url: '/api/jobs/nope/progress?since=abc', ...since('abc') },
  { url: '/api/jobs/nope/progress?since=1.5', ...since('1.5') },
  { url: '/api/jobs/nope/progress?since=%20', ...since(' ') },
  { url: '/api/jobs/nope/progress?since=1&since=2', ...since('1,2') },
  { url: '/api/jobs/nope/progress?since=', status: 404, detail: "job 'nope' not found", code: 'SPC_ERR_JOB_NOT_FOUND' },
  { url: '/api/jobs/nope/progress?since=%203%20', status: 404, detail: "job 'nope' not found", code: 'SPC_ERR_JOB_NOT_FOUND' },
  { url: '/api/jobs/nope/events?since=x', ...since('x') },
  { url: '/api/jobs/nope/events', headers: { 'last-event-id': 'abc' }, ...since('abc') },
  { url: '/api/jobs/nope/events?since=2', headers: { 'last-event-id': '  ' }, status: 404, detail: "job 'nope' not found", code: 'SPC_ERR_JOB_NOT_FOUND' },
  { url: `/api/rooms/${LONG}/events`, ...bad('room_id is longer than 256 characters') },
  {
    method: 'POST',
    url: '/api/uploads',
    payload: Buffer.from('x'),
    headers: { 'content-type': 'application/octet-stream' },
    ...bad("filename (the uploaded file's name, e.g. ?filename=scan.stl) is required"),
  },
  {
    method: 'POST',
    url: '/api/uploads?filename=%20',
    payload: Buffer.from('x'),
    headers: { 'content-type': 'application/octet-stream' },
    ...bad("filename (the uploaded file's name, e.g. ?filename=scan.stl) is required"),
  },
  {
    method: 'POST',
    url: '/api/uploads?filename=a.stl&filename=b.stl',
    payload: Buffer.from('x'),
    headers: { 'content-type': 'application/octet-stream' },
    ...bad("filename (the uploaded file's name, e.g. ?filename=scan.stl) is required"),
  },
];

describe('malformed request inputs', () => {
  it('answer the catalogued status, detail and code', async () => {
    const app = await createTestApp();
    addDynamicSpecimen(app, 'sq', 'square');
    for (const c of CASES) {
      const res = await app.inject({
        method: c.method ?? 'GET',
        url: c.url,
        ...(c.payload === undefined ? {} : { payload: c.payload as object }),
        ...(c.headers ? { headers: c.headers } : {}),
      });
      const name = `${c.method ?? 'GET'} ${c.url.slice(0, 80)} ${JSON.stringify(c.payload ?? null).slice(0, 60)}`;
      expect(res.json(), name).toEqual({ status_code: c.status, detail: c.detail, code: c.code });
      expect(res.statusCode, name).toBe(c.status);
    }
  });

  it('take an absent body, null members and an empty room as their defaults', async () => {
    const app = await createTestApp();
    addDynamicSpecimen(app, 'sq', 'square');
    const invoke = await app.inject({ method: 'POST', url: INVOKE, payload: { function_name: 'square', args: null, kwargs: null, room_id: null } });
    expect(invoke.statusCode, invoke.body).toBe(200);
    expect((await app.inject({ method: 'POST', url: INVOKE, payload: { function_name: 'square', room_id: '' } })).statusCode).toBe(200);
    const start = await app.inject({ method: 'POST', url: START });
    expect(start.statusCode, start.body).toBe(200);
    const data = await app.inject({ method: 'POST', url: DATA, payload: { delivery: null, room_id: null } });
    expect(data.statusCode, data.body).toBe(200);
  });
});
