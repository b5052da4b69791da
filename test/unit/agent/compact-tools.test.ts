/**
 * @module compact-tools.test
 * The tools as the model is offered them: the parameter schemas every `params` member lists are
 * written once, in the first tool that takes them, the others point to it; a specimen whose schema
 * is its function's is named in the function's alternative; tools without `params` are untouched.
 */
import { describe, expect, it } from 'vitest';
import { compactTools } from '../../../core/agent/agent-tools.ts';
import type { ModelTool } from '../../../core/agent/model/agent-model.ts';

const shape = { type: 'object', description: 'A shape.', properties: { size: { type: 'integer', default: 8 } } };
const refined = { type: 'object', description: 'A shape.', properties: { size: { type: 'integer', default: 16 } } };
const params = {
  type: 'object',
  description: 'Parameter values by name.',
  anyOf: [
    { ...shape, title: 'function shape' },
    { ...shape, title: 'specimen plain-shape' },
    { ...refined, title: 'specimen big-shape' },
  ],
};
const tool = (name: string, withParams: boolean): ModelTool => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: { type: 'object', properties: { room: { type: 'string' }, ...(withParams ? { params } : {}) } },
});

describe('compactTools', () => {
  it('writes the parameter schemas once, folds a specimen that repeats its function, and points the others there', () => {
    const given = [tool('list_specimens', false), tool('compute', true), tool('add_layer', true)];
    const out = compactTools(given);
    expect(out[0]).toEqual(given[0]);
    const first = (out[1]!.inputSchema.properties as Record<string, { anyOf?: { title: string }[] }>).params!;
    expect(first.anyOf!.map((v) => v.title)).toEqual(['function shape; specimen plain-shape', 'specimen big-shape']);
    const second = (out[2]!.inputSchema.properties as Record<string, { anyOf?: unknown; description: string }>).params!;
    expect(second.anyOf).toBeUndefined();
    expect(second.description).toContain("compute's params");
    expect(JSON.stringify(out).length).toBeLessThan(JSON.stringify(given).length * 0.8);
    // The listing it was given is left as it was (the MCP listing shares it).
    expect(params.anyOf).toHaveLength(3);
  });
});
