/**
 * @module ome-unit
 * A volume's length and time units as OME-NGFF names them (UDUNITS-2 names: `micrometer`,
 * not `µm`; `second`, not `s`).
 * Plugins write units the way people do; the usual abbreviations are mapped, names NGFF
 * already knows pass, and anything else is left off the axes (a reader rejects a store
 * whose axis carries a unit it does not know).
 */

const NGFF_SPACE_UNITS = new Set([
  'angstrom', 'attometer', 'centimeter', 'decimeter', 'exameter', 'femtometer', 'foot', 'gigameter', 'hectometer', 'inch',
  'kilometer', 'megameter', 'meter', 'micrometer', 'mile', 'millimeter', 'nanometer', 'parsec', 'petameter', 'picometer',
  'terameter', 'yard', 'yoctometer', 'yottameter', 'zeptometer', 'zettameter',
]);

const ABBREVIATIONS: Record<string, string> = {
  'å': 'angstrom', a: 'angstrom', pm: 'picometer', nm: 'nanometer', 'µm': 'micrometer', 'μm': 'micrometer', um: 'micrometer',
  micron: 'micrometer', microns: 'micrometer', mm: 'millimeter', cm: 'centimeter', dm: 'decimeter', m: 'meter', km: 'kilometer',
  in: 'inch', ft: 'foot',
};

/** The NGFF name of a length unit, or undefined when it has none. */
export function omeSpaceUnit(unit: string | undefined): string | undefined {
  if (typeof unit !== 'string') return undefined;
  const word = unit.trim().toLowerCase();
  const singular = word.endsWith('metres') || word.endsWith('meters') ? word.slice(0, -1) : word;
  const named = singular.replace(/metre$/, 'meter');
  if (NGFF_SPACE_UNITS.has(named)) return named;
  return ABBREVIATIONS[unit.trim()] ?? ABBREVIATIONS[word];
}

const NGFF_TIME_UNITS = new Set([
  'attosecond', 'centisecond', 'day', 'decisecond', 'exasecond', 'femtosecond', 'gigasecond', 'hectosecond', 'hour', 'kilosecond',
  'megasecond', 'microsecond', 'millisecond', 'minute', 'nanosecond', 'petasecond', 'picosecond', 'second', 'terasecond',
  'yoctosecond', 'yottasecond', 'zeptosecond', 'zettasecond',
]);

const TIME_ABBREVIATIONS: Record<string, string> = {
  s: 'second', sec: 'second', secs: 'second', ms: 'millisecond', 'µs': 'microsecond', 'μs': 'microsecond', us: 'microsecond',
  ns: 'nanosecond', ps: 'picosecond', fs: 'femtosecond', min: 'minute', mins: 'minute', h: 'hour', hr: 'hour', hrs: 'hour', d: 'day', days: 'day',
};

/** The NGFF name of a time unit (`s` → `second`, `minutes` → `minute`), or undefined when it has none. */
export function omeTimeUnit(unit: string | undefined): string | undefined {
  if (typeof unit !== 'string') return undefined;
  const word = unit.trim().toLowerCase();
  const singular = word.endsWith('s') && NGFF_TIME_UNITS.has(word.slice(0, -1)) ? word.slice(0, -1) : word;
  if (NGFF_TIME_UNITS.has(singular)) return singular;
  return TIME_ABBREVIATIONS[unit.trim()] ?? TIME_ABBREVIATIONS[word];
}
