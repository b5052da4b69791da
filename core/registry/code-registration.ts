/**
 * @module code-registration
 * Functions and specimens registered in code (`createApp({ meshFunctions })`,
 * `app.vitrine.registerFunction`, `app.vitrine.registerSpecimen`). They run on the main thread
 * (see inline-invoker.ts).
 */
import type { SpecimenRecord, ThumbnailSource } from '../catalog/specimen-record.ts';
import { precompileSchema } from '../params/resolve-params.ts';
import type { ResultType } from '../sdk/result-types.ts';
import type { FunctionEntry } from './function-entry.ts';
import { inferSchema } from './infer-schema.ts';
import type { ManifestParameter } from './manifest-types.ts';

// Plugin functions take any parameters; the host passes checked values.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFunction = (...args: any[]) => unknown;

export interface RegisterFunctionOptions {
  /** @defaultValue `"mesh"` */
  returnType?: ResultType;
  /** The parameter schema; inferred from the function's defaults when absent. */
  schema?: Record<string, unknown>;
  /** Parameter layout (which positions are injected); inferred from the source when absent. */
  parameters?: ManifestParameter[];
}

export interface RegisterSpecimenOptions extends RegisterFunctionOptions {
  id: string;
  display_name?: string;
  description?: string;
  tags?: string[];
  /** A `data:` URI (decoded by the server) or an absolute path to an image file. */
  thumbnail?: string;
  story?: string;
  /** Name to register the function under. @defaultValue the specimen id */
  function_name?: string;
}

const RESULT_TYPES: ResultType[] = ['mesh', 'volume', 'point_cloud', 'image'];

export function toInlineEntry(name: string, fn: AnyFunction, options: RegisterFunctionOptions = {}): FunctionEntry {
  if (typeof fn !== 'function') throw new TypeError(`function '${name}' must be a function`);
  const returnType = options.returnType ?? 'mesh';
  if (!RESULT_TYPES.includes(returnType)) throw new TypeError(`returnType must be one of ${RESULT_TYPES.join(', ')}, got ${String(returnType)}`);
  const inferred = options.schema && options.parameters ? null : inferSchema(name, fn);
  const schema = options.schema ?? inferred!.schema;
  precompileSchema(schema);
  return {
    name,
    return_type: returnType,
    schema,
    parameters: options.parameters ?? inferred!.parameters,
    async: fn.constructor.name === 'AsyncFunction',
    source: { kind: 'inline', fn },
    plugin: null,
  };
}

export function toCodeSpecimen(options: RegisterSpecimenOptions, entry: FunctionEntry): SpecimenRecord {
  let thumbnail: ThumbnailSource = { kind: 'none' };
  if (options.thumbnail?.startsWith('data:')) thumbnail = { kind: 'data-uri', uri: options.thumbnail };
  else if (options.thumbnail) thumbnail = { kind: 'file', path: options.thumbnail };
  return {
    id: options.id,
    display_name: options.display_name ?? options.id,
    description: options.description ?? '',
    type: entry.return_type,
    tags: options.tags ?? [],
    is_dynamic: true,
    function_name: entry.name,
    thumbnail_file: thumbnail.kind === 'file' ? (options.thumbnail!.split(/[\\/]/).pop() ?? null) : null,
    thumbnail,
    story: options.story ?? null,
    origin: 'code',
  };
}
