/**
 * @module ome-unit
 * A volume's length unit as OME-NGFF names it (UDUNITS-2 names: `micrometer`, not `µm`).
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
