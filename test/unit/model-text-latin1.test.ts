/**
 * What the host sends the model with every request (the tool table and the system prompt) is
 * written in Latin-1. A request is one JSON string; a single character past U+00FF anywhere in it
 * makes V8 hold the whole string at two bytes a character, so a request carrying a 4 MiB
 * screenshot took 11 MB instead of 5.6 MB, and every pass over it (its UTF-8 length, its
 * encoding) read twice the memory. One typographic apostrophe in a tool's description did it.
 */
import { describe, expect, it } from 'vitest';
import { MCP_TOOLS, TOOL_NAMES } from '../../core/mcp/mcp-tools.ts';
import type { ToolSchemaParts } from '../../core/mcp/mcp-tool.ts';
import { systemPrompt } from '../../core/agent/turn-runner.ts';

const PARTS: ToolSchemaParts = { target: { specimen: {}, function: {}, params: {} }, room: {} };

/** The characters of `text` past Latin-1. */
const pastLatin1 = (text: string) => [...text].filter((c) => c.codePointAt(0)! > 0xff);

describe('the text sent to the model with every request', () => {
  it("keeps every tool's description and schema within Latin-1", () => {
    for (const name of TOOL_NAMES) {
      const tool = MCP_TOOLS[name];
      expect(pastLatin1(JSON.stringify({ description: tool.description, input: tool.input(PARTS) })), name).toEqual([]);
    }
  });

  it('keeps the system prompt within Latin-1 (a room id past it is the room’s own, quoted as data)', () => {
    expect(pastLatin1(systemPrompt('a-room'))).toEqual([]);
  });

  it('finds a character past Latin-1 where there is one', () => {
    expect(pastLatin1('the room’s')).toEqual(['’']);
  });
});
