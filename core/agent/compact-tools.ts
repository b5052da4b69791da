/**
 * @module compact-tools
 * The tools as the model is offered them, in fewer bytes than the MCP listing, since every request
 * to the provider carries them again. The parameter schemas of every function and dynamic
 * specimen (by far the largest part) are given once, in the first tool that takes `params`; the
 * other tools that take `params` point to that one. A dynamic specimen whose parameter schema is
 * its function's is named in that function's alternative rather than written out again. The host
 * checks a call's parameters against the full schemas whatever the model was shown.
 */
import type { ModelTool } from './model/agent-model.ts';

type Schema = Record<string, unknown>;

/** The alternatives of a `params` member, with a specimen that repeats its function's schema folded into it. */
function folded(variants: Schema[]): Schema[] {
  const bodyOf = (variant: Schema) => JSON.stringify({ ...variant, title: undefined });
  const kept = new Map<string, Schema>();
  for (const variant of variants) {
    const body = bodyOf(variant);
    const same = kept.get(body);
    if (same) same.title = `${String(same.title)}; ${String(variant.title)}`;
    else kept.set(body, { ...variant });
  }
  return [...kept.values()];
}

function paramsOf(tool: ModelTool): Schema | null {
  const params = (tool.inputSchema.properties as Record<string, Schema> | undefined)?.params;
  return params && Array.isArray(params.anyOf) ? params : null;
}

function withParams(tool: ModelTool, params: Schema): ModelTool {
  const properties = tool.inputSchema.properties as Record<string, Schema>;
  return { ...tool, inputSchema: { ...tool.inputSchema, properties: { ...properties, params } } };
}

export function compactTools(tools: readonly ModelTool[]): ModelTool[] {
  let holder: string | null = null;
  return tools.map((tool) => {
    const params = paramsOf(tool);
    if (!params) return tool;
    if (holder === null) {
      holder = tool.name;
      return withParams(tool, { ...params, anyOf: folded(params.anyOf as Schema[]) });
    }
    const { anyOf: _given, ...rest } = params;
    return withParams(tool, {
      ...rest,
      description: `Parameter values by name; absent ones take their defaults. The schema of each function's and specimen's is in ${holder}'s params.`,
    });
  });
}
