/**
 * @module parse-delivery
 * Reads delivery options from a request: the query of GET /data (every query parameter but
 * `params` and `room_id` is one) or the `delivery` object beside `params` in POST /data. Each
 * bad option or value is a catalogued 400 naming it. Whether an option fits the result's type
 * is checked later (check-delivery.ts), once the type is known.
 */
import { createHostError, type HostError } from '../errors.ts';
import {
  COMPRESS_FORMATS,
  DELIVERY_DTYPES,
  DELIVERY_OPTION_NAMES,
  FORMATS_BY_TYPE,
  VECTOR_MODES,
  type DeliveryDType,
  type DeliveryOptionName,
  type DeliveryOptions,
} from './delivery-options.ts';

/** Query parameters of GET /data that are not delivery options. */
const DATA_QUERY_KEYS = new Set(['params', 'room_id']);

const ALL_FORMATS = new Set(Object.values(FORMATS_BY_TYPE).flat());

/** SPC_ERR_DELIVERY_OPTION_INVALID for option `name` holding `value`. */
export function invalidDeliveryOption(name: string, value: unknown, expected: string): HostError {
  const shown = typeof value === 'string' ? `'${value}'` : JSON.stringify(value) ?? String(value);
  return createHostError('SPC_ERR_DELIVERY_OPTION_INVALID', name, shown, expected);
}

function isOptionName(name: string): name is DeliveryOptionName {
  return (DELIVERY_OPTION_NAMES as readonly string[]).includes(name);
}

/** A whole number of at least `least`, from a query string or a JSON number; else the 400 expecting `expected`. */
function wholeNumber(name: string, raw: unknown, least: number, expected: string): number {
  const value = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < least) throw invalidDeliveryOption(name, raw, expected);
  return value;
}

const positiveInteger = (name: string, raw: unknown): number => wholeNumber(name, raw, 1, 'a positive integer');
/** A step or channel index. */
const index = (name: string, raw: unknown): number => wholeNumber(name, raw, 0, 'an integer from 0');

/** A channel index, or a vector mode. */
function channel(raw: unknown): number | (typeof VECTOR_MODES)[number] {
  if ((VECTOR_MODES as readonly unknown[]).includes(raw)) return raw as (typeof VECTOR_MODES)[number];
  if (typeof raw === 'number' || (typeof raw === 'string' && /^\s*\d+\s*$/.test(raw))) return index('c', raw);
  throw invalidDeliveryOption('c', raw, `a channel index from 0, or for a vector field ${VECTOR_MODES.join(' or ')}`);
}

function oneOf(name: string, raw: unknown, allowed: Iterable<string>): string {
  const list = [...allowed];
  if (typeof raw !== 'string' || !list.includes(raw)) throw invalidDeliveryOption(name, raw, `one of ${list.join(', ')}`);
  return raw;
}

/** `LO,HI` (or a JSON [LO, HI]): finite numbers with LO < HI. */
function windowOf(raw: unknown): [number, number] {
  const parts = typeof raw === 'string' ? raw.split(',').map((p) => (p.trim() === '' ? Number.NaN : Number(p))) : raw;
  if (!Array.isArray(parts) || parts.length !== 2 || !parts.every((p) => typeof p === 'number' && Number.isFinite(p))) {
    throw invalidDeliveryOption('window', raw, 'two finite numbers LO,HI');
  }
  const [lo, hi] = parts as [number, number];
  if (!(lo < hi)) throw invalidDeliveryOption('window', raw, 'LO below HI');
  return [lo, hi];
}

function parseOption(options: DeliveryOptions, name: string, raw: unknown): void {
  if (!isOptionName(name)) throw createHostError('SPC_ERR_DELIVERY_OPTION_UNKNOWN', name, DELIVERY_OPTION_NAMES.join(', '));
  switch (name) {
    case 'format':
      options.format = oneOf(name, raw, ALL_FORMATS);
      return;
    case 'compress':
      options.compress = oneOf(name, raw, Object.keys(COMPRESS_FORMATS));
      return;
    case 'normals':
      // true is the default, left out so a delivery has one key.
      if (oneOf(name, raw === true || raw === false ? String(raw) : raw, ['true', 'false']) === 'false') options.normals = false;
      return;
    case 'max_triangles':
      options.max_triangles = positiveInteger(name, raw);
      return;
    case 'dtype':
      options.dtype = oneOf(name, raw, DELIVERY_DTYPES) as DeliveryDType;
      return;
    case 'window':
      options.window = windowOf(raw);
      return;
    case 'max_dim':
      options.max_dim = positiveInteger(name, raw);
      return;
    case 'segment':
      options.segment = raw === 'all' ? 'all' : wholeNumber(name, raw, 1, 'a label id (a whole number of at least 1; 0 is the background) or all');
      return;
    case 't':
      options.t = index(name, raw);
      return;
    case 'c':
      options.c = channel(raw);
  }
}

/** Delivery options from the query of GET /data (a repeated option is refused). */
export function parseDeliveryQuery(query: Record<string, unknown>): DeliveryOptions {
  const options: DeliveryOptions = {};
  for (const [name, raw] of Object.entries(query)) {
    if (DATA_QUERY_KEYS.has(name)) continue;
    if (Array.isArray(raw)) throw invalidDeliveryOption(name, raw.join('&'), 'given once');
    parseOption(options, name, raw);
  }
  return options;
}

/**
 * Delivery options from the `delivery` member of a POST /data body (absent or null: none; the
 * route's body schema refuses anything but an object).
 */
export function parseDeliveryObject(raw: Record<string, unknown> | null | undefined): DeliveryOptions {
  if (raw === undefined || raw === null) return {};
  const options: DeliveryOptions = {};
  for (const [name, value] of Object.entries(raw)) parseOption(options, name, value);
  return options;
}
