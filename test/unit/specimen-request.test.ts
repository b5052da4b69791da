/**
 * request/specimen-request.ts: a request is resolved with one look-up of its function and
 * one schema, GET's query values are shared between requests with the same text, and faults
 * come in the order the routes report them (function, parameters, delivery).
 */
import { describe, expect, it } from 'vitest';
import type { SpecimenRecord } from '../../core/catalog/specimen-record.ts';
import { isHostError } from '../../core/errors.ts';
import type { FunctionEntry } from '../../core/registry/function-entry.ts';
import type { RequestDeps } from '../../core/request/request-deps.ts';
import { computeRequestOf, resolveRequest, type RequestAsk } from '../../core/request/specimen-request.ts';

const entry: FunctionEntry = {
  name: 'grid',
  return_type: 'volume',
  schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { size: { type: 'integer', minimum: 1, maximum: 64, default: 8 } },
  },
  parameters: [{ name: 'size', kind: 'value' }],
  async: false,
  source: { kind: 'inline', fn: () => null },
  plugin: null,
};

const record: SpecimenRecord = {
  id: 'dyn-grid',
  display_name: 'Grid',
  description: '',
  type: 'volume',
  tags: [],
  is_dynamic: true,
  function_name: 'grid',
  thumbnail_file: null,
  thumbnail: { kind: 'none' },
  story: null,
  schema_override: { properties: { size: { maximum: 16, default: 4 } } },
  origin: 'code',
};

/** Host parts for a request, counting how often the function registry is asked. */
function deps(registered: FunctionEntry | null = entry): RequestDeps & { asked: number } {
  const refused = () => Promise.reject(new Error('not reached: nothing is computed while resolving'));
  const out = {
    asked: 0,
    catalog: { get: (id: string) => (id === record.id ? record : undefined) },
    functions: {
      get: (name: string) => {
        out.asked++;
        return name === 'grid' ? (registered ?? undefined) : undefined;
      },
    },
    uploads: null,
    published: { refresh: refused },
    staticInputs: { load: refused },
    results: { open: refused },
    options: { maxParamsLength: 1024, defaultRoomId: 'service', clientProfiles: true, headsetTriangles: 100_000 },
  };
  return out;
}

/** The catalogued code `promise` rejects with. */
async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!isHostError(error)) throw new Error(`expected a host error, got ${String(error)}`);
  return error.code;
}

describe('resolveRequest', () => {
  it("asks the registry once and checks values against the specimen's refined schema", async () => {
    const host = deps();
    const ask: RequestAsk = {
      target: { specimen: record },
      params: { query: '{"size": 3}' },
      room: '',
      delivery: { asked: { dtype: 'uint8' }, userAgent: undefined },
    };
    const first = await resolveRequest(host, ask);
    expect(host.asked).toBe(1);
    expect(first).toMatchObject({ record, entry, values: { size: 3 }, delivery: { dtype: 'uint8' }, roomId: 'service' });
    expect((first.schema.properties as Record<string, { maximum: number }>).size?.maximum).toBe(16);
    // The same text again: the same (frozen) values and the same schema object, one more look-up.
    const second = await resolveRequest(host, ask);
    expect(host.asked).toBe(2);
    expect(second.values).toBe(first.values);
    expect(second.schema).toBe(first.schema);
    expect(Object.isFrozen(first.values)).toBe(true);
    expect(computeRequestOf(second)).toEqual({ entry, values: { size: 3 }, roomId: 'service', specimenId: 'dyn-grid' });
  });

  it('fills defaults from the refinement and takes a function named directly with positional values', async () => {
    const host = deps();
    expect((await resolveRequest(host, { target: { specimen: record }, params: { named: {} } })).values).toEqual({ size: 4 });
    const direct = await resolveRequest(host, { target: { function: entry }, params: { named: {}, positional: [40] }, room: 'lab' });
    expect(host.asked).toBe(1);
    expect(direct).toMatchObject({ record: null, values: { size: 40 }, delivery: {}, roomId: 'lab' });
    expect(computeRequestOf(direct).specimenId).toBeNull();
  });

  it('reports faults in order: function, then parameters, then delivery', async () => {
    const badAll: RequestAsk = {
      target: { specimen: record },
      params: { named: { size: 99 } },
      delivery: { asked: { max_triangles: 5 }, userAgent: undefined },
    };
    expect(await codeOf(resolveRequest(deps(null), badAll))).toBe('SPC_ERR_FUNCTION_UNAVAILABLE');
    expect(await codeOf(resolveRequest(deps(), badAll))).toBe('SPC_ERR_PARAM_INVALID');
    expect(await codeOf(resolveRequest(deps(), { ...badAll, params: { named: {} } }))).toBe('SPC_ERR_DELIVERY_OPTION_MISFIT');
  });
});
