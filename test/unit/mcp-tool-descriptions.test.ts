/**
 * Every input of every MCP tool says what it is: an agent chooses its arguments from these
 * descriptions alone, so a property without one (a bare `{type: 'number'}`) is a guess for it.
 */
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/create-test-app.ts';

type Schema = { description?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };

/** The paths of the properties under `schema` that have no description. */
function undescribed(schema: Schema, at: string): string[] {
  const missing: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = `${at}.${name}`;
    if (!property.description) missing.push(path);
    // Parameter schemas are the plugins' own (their docstrings describe them).
    if (name !== 'params') missing.push(...undescribed(property, path));
  }
  return missing;
}

describe('MCP tool inputs', () => {
  it('describes every property of every tool', async () => {
    const app = await createTestApp();
    const reply = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(reply.statusCode).toBe(200);
    const tools = (reply.json() as { result: { tools: { name: string; inputSchema: Schema }[] } }).result.tools;
    expect(tools.length).toBeGreaterThan(10);
    expect(tools.flatMap((tool) => undescribed(tool.inputSchema, tool.name))).toEqual([]);
  });
});
