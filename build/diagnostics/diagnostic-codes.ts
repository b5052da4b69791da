/**
 * @module diagnostic-codes
 * The catalog of build errors. Every error `vitrine build` reports carries one of these stable
 * codes; the numbers group by area (1xx parameters and schemas, 2xx functions, 3xx declared
 * specimens, 4xx plugins and bundles); type errors keep the compiler's own `TS` codes. build/README.md documents each one.
 * A few are warnings (a diagnostic's `severity`): the build goes on, and `--check` fails on them.
 */

export const DIAGNOSTIC_CODES = {
  VITRINE_SCHEMA_100: 'unsupported parameter type',
  VITRINE_SCHEMA_101: 'default is not a literal',
  VITRINE_SCHEMA_102: 'default does not match the parameter type',
  VITRINE_SCHEMA_103: 'default is outside the bounds',
  VITRINE_SCHEMA_104: 'bound on a non-numeric parameter',
  VITRINE_SCHEMA_105: 'malformed bound tag',
  VITRINE_SCHEMA_106: 'destructured or rest parameter',
  VITRINE_SCHEMA_107: 'injected parameter given twice',
  VITRINE_SCHEMA_108: 'item count on a parameter that is not an array',
  VITRINE_SCHEMA_109: 'parameter the host cannot pass by name',
  VITRINE_SCHEMA_110: 'doc comment names no parameter',
  VITRINE_FUNCTION_200: 'return type is not a result type',
  VITRINE_FUNCTION_201: 'duplicate function name',
  VITRINE_SPECIMEN_300: 'specimens declaration is not a literal',
  VITRINE_SPECIMEN_301: 'invalid specimen id',
  VITRINE_SPECIMEN_302: 'duplicate specimen id',
  VITRINE_SPECIMEN_303: 'specimen function is not a registered export',
  VITRINE_SPECIMEN_304: 'thumbnail path outside the plugin folder',
  VITRINE_SPECIMEN_305: 'thumbnail file missing',
  VITRINE_SPECIMEN_306: 'invalid specimen field',
  VITRINE_PLUGIN_400: 'invalid plugin folder name',
  VITRINE_PLUGIN_401: 'bundling failed',
  VITRINE_PLUGIN_402: 'plugin folder has both index.ts and plugin.py',
  VITRINE_PLUGIN_403: 'Python plugin could not be read',
} as const satisfies Record<string, string>;

/** A build error code of our own, e.g. `VITRINE_SCHEMA_100`. */
export type CatalogCode = keyof typeof DIAGNOSTIC_CODES;

/** A TypeScript compiler error code, e.g. `TS2322`, reported as the compiler numbers it. */
export type TypeScriptCode = `TS${number}`;

/** A build error code: ours, or the compiler's for a type error in a plugin's sources. */
export type DiagnosticCode = CatalogCode | TypeScriptCode;
