/**
 * @module check-source
 * The shape of a layer's source: `{"specimen": id}` or `{"function": name}`, with `params` (an
 * object) and optionally `bind` (`{"<param>": {"label": "<label>"}}`: a parameter fed the room's
 * points, all of them or those with that label), optionally `version`: the plugin version (or
 * bundle id) that computes it, kept by the host side by side with newer ones, and `segment` (a
 * label id or `all`: the layer is that label's surface, made of the labels volume the source
 * gives). Whether the specimen, function and parameters exist and check is the host's to
 * resolve (as `/data` would); this is what any store keeps.
 */
import type { LayerSource, PointBinding } from '../wire/scene-types.ts';
import { stableJson } from '../wire/stable-json.ts';
import { isRecord } from '../wire/json-object.ts';
import { bad, onlyMembers } from './check-display.ts';
import { MAX_BINDING_TEXT, MAX_BINDINGS, MAX_PARAMS_BYTES, MAX_SOURCE_NAME_LENGTH } from './scene-limits.ts';

function name(value: unknown, path: string, what: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_SOURCE_NAME_LENGTH)
    throw bad(path, `must be ${what} (a text of 1 to ${MAX_SOURCE_NAME_LENGTH} characters)`);
  return value;
}

function bindings(value: unknown, path: string, params: Record<string, unknown>): Record<string, PointBinding> {
  if (!isRecord(value)) throw bad(path, 'must be an object {"<parameter>": {"label": "<label>"}}');
  const entries = Object.entries(value);
  if (entries.length > MAX_BINDINGS) throw bad(path, `binds ${entries.length} parameters, more than ${MAX_BINDINGS}`);
  const out: Record<string, PointBinding> = {};
  for (const [param, binding] of entries) {
    const at = `${path}.${param}`;
    if (param.length === 0 || param.length > MAX_BINDING_TEXT) throw bad(path, `names a parameter of ${param.length} characters (1 to ${MAX_BINDING_TEXT})`);
    if (Object.hasOwn(params, param)) throw bad(at, 'is given in params too: a bound parameter takes the room\'s points instead');
    if (!isRecord(binding)) throw bad(at, 'must be an object {"label": "<label>"} ({} binds every point)');
    onlyMembers(binding, ['label'], at);
    if (binding.label === undefined) out[param] = {};
    else if (typeof binding.label !== 'string' || binding.label.length > MAX_BINDING_TEXT)
      throw bad(`${at}.label`, `must be a text of at most ${MAX_BINDING_TEXT} characters`);
    else out[param] = { label: binding.label };
  }
  return out;
}

/** The source `value` at `path`, checked for shape. @throws SPC_ERR_SCENE_INVALID naming the field. */
export function checkSource(value: unknown, path: string): LayerSource {
  if (!isRecord(value)) throw bad(path, 'must be {"specimen": id} or {"function": name}, with "params"');
  onlyMembers(value, ['specimen', 'function', 'params', 'bind', 'version', 'segment'], path);
  if ((value.specimen === undefined) === (value.function === undefined)) throw bad(path, "must give exactly one of 'specimen' (an id) and 'function' (a name)");
  const params = value.params ?? {};
  if (!isRecord(params)) throw bad(`${path}.params`, 'must be an object of parameter values by name');
  const bytes = Buffer.byteLength(JSON.stringify(params));
  if (bytes > MAX_PARAMS_BYTES)
    throw bad(
      `${path}.params`,
      `takes ${bytes} bytes of JSON, more than the ${MAX_PARAMS_BYTES} a layer's source may (large inputs belong in an upload or a published specimen)`,
    );
  const source: LayerSource =
    value.specimen !== undefined
      ? { specimen: name(value.specimen, `${path}.specimen`, 'a specimen id') }
      : { function: name(value.function, `${path}.function`, 'a function name') };
  source.params = params;
  if (value.bind !== undefined) source.bind = bindings(value.bind, `${path}.bind`, params);
  if (value.version !== undefined && value.version !== null) source.version = name(value.version, `${path}.version`, "a plugin's version or bundle id");
  if (value.segment !== undefined) source.segment = segmentOf(value.segment, `${path}.segment`);
  return source;
}

/** A label id (a whole number from 1 to the largest uint32) or `all`. */
function segmentOf(value: unknown, path: string): number | 'all' {
  if (value === 'all') return value;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 0xffffffff)
    throw bad(path, 'must be a label id (a whole number from 1 to 4294967295; 0 is the background) or "all"');
  return value;
}

/** Whether two sources name the same thing with the same parameters and bindings. */
export function sameSource(a: LayerSource, b: LayerSource): boolean {
  return canonical(a) === canonical(b);
}

function canonical(source: LayerSource): string {
  return stableJson({
    specimen: source.specimen ?? null,
    function: source.function ?? null,
    params: source.params ?? {},
    bind: source.bind ?? {},
    version: source.version ?? null,
    segment: source.segment ?? null,
  });
}
