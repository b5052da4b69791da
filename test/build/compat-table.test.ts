/**
 * The golden table of the change classifier (build/compat/): one pair of manifests per kind of
 * change between two builds of a plugin, TypeScript and Python, each with every line it must
 * give (class, kind and the words a person reads), then the major-version rule.
 */
import { describe, expect, it } from 'vitest';
import type { ManifestFunction } from '../../core/registry/manifest-types.ts';
import type { ResultType } from '../../core/sdk/result-types.ts';
import type { ChangeClass, ChangeKind } from '../../build/compat/compat-change.ts';
import { compareBuilds, majorOf, type VersionedManifest } from '../../build/compat/compat-report.ts';

type Property = Record<string, unknown>;
type Lang = 'ts' | 'py';
type Expected = [ChangeClass, ChangeKind, string];

const num = (extra: Property = {}): Property => ({ type: 'number', ...extra });
const int = (extra: Property = {}): Property => ({ type: 'integer', ...extra });
const str = (extra: Property = {}): Property => ({ type: 'string', ...extra });
const color = (extra: Property = {}): Property => ({ type: 'string', format: 'color', pattern: '^#[0-9a-fA-F]{6}$', ...extra });
const oneOf = (values: (string | number)[], extra: Property = {}): Property => ({ enum: values, ...extra });
const list = (items: Property, extra: Property = {}): Property => ({ type: 'array', items, ...extra });
const tuple = (items: Property[], extra: Property = {}): Property => ({
  type: 'array', prefixItems: items, items: false, minItems: items.length, maxItems: items.length, ...extra,
});
const input = (kind: string, extra: Property = {}): Property => ({ type: 'object', 'x-vitrine-input': kind, oneOf: [], ...extra });

interface FnSpec {
  props: Record<string, Property>;
  required?: string[];
  returns?: ResultType;
  reporter?: string;
}

function fn(name: string, spec: FnSpec, line = 10): ManifestFunction {
  const names = Object.keys(spec.props);
  return {
    name,
    return_type: spec.returns ?? 'mesh',
    async: false,
    parameters: [...names.map((p) => ({ name: p, kind: 'value' as const })), ...(spec.reporter ? [{ name: spec.reporter, kind: 'reporter' as const }] : [])],
    reporter_parameter: spec.reporter ?? null,
    signal_parameter: null,
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: name,
      type: 'object',
      properties: spec.props,
      ...(spec.required?.length ? { required: spec.required } : {}),
    },
    source: { file: 'index.ts', line },
  };
}

function build(lang: Lang, functions: Record<string, FnSpec>, version = '1.0.0'): VersionedManifest[] {
  const file = lang === 'py' ? 'plugin.py' : 'index.ts';
  return [{
    $comment: 'test',
    manifest_version: 1,
    plugin: 'lab',
    version,
    ...(lang === 'py' ? { runtime: 'python' as const } : {}),
    bundle: lang === 'py' ? 'plugin.py' : 'index.mjs',
    functions: Object.entries(functions).map(([name, spec], index) => ({ ...fn(name, spec, 10 + index * 10), source: { file, line: 10 + index * 10 } })),
    specimens: [],
  }];
}

const ripple = (props: Record<string, Property>, required?: string[]): Record<string, FnSpec> => ({ ripple: { props, required } });

/** [label, language, before, after, every expected change]. */
const TABLE: [string, Lang, Record<string, FnSpec>, Record<string, FnSpec>, Expected[]][] = [
  ['function removed', 'ts', { ripple: { props: {} }, wave: { props: { a: num() } } }, { ripple: { props: {} } },
    [['breaking', 'function-removed', "function 'wave' removed"]]],
  ['function renamed', 'ts', { ripple: { props: { a: num({ default: 1 }) } } }, { wave: { props: { a: num({ default: 1 }) } } },
    [['breaking', 'function-renamed', "function 'ripple' renamed to 'wave'"]]],
  ['function added (Python)', 'py', { ripple: { props: {} } }, { ripple: { props: {} }, wave: { props: {} } },
    [['compatible', 'function-added', "function 'wave' added"]]],
  ['return type changed', 'ts', { ripple: { props: {} } }, { ripple: { props: {}, returns: 'volume' } },
    [['breaking', 'return-type-changed', "return type of 'ripple' changed from mesh to volume"]]],
  ['return type changed (Python)', 'py', { ripple: { props: {}, returns: 'image' } }, { ripple: { props: {}, returns: 'point_cloud' } },
    [['breaking', 'return-type-changed', "return type of 'ripple' changed from image to point_cloud"]]],
  ['parameter removed (Python)', 'py', ripple({ a: num(), b: str() }), ripple({ a: num() }),
    [['breaking', 'parameter-removed', "parameter 'b' of 'ripple' removed"]]],
  ['parameter renamed', 'ts', ripple({ radius: num({ default: 1.5 }), mode: str() }), ripple({ r: num({ default: 1.5 }), mode: str() }),
    [['breaking', 'parameter-renamed', "parameter 'radius' of 'ripple' renamed to 'r'"]]],
  ['parameter renamed in place, default changed too (Python)', 'py', ripple({ radius: num({ default: 1 }) }), ripple({ size: num({ default: 2 }) }),
    [['breaking', 'parameter-renamed', "parameter 'radius' of 'ripple' renamed to 'size'"],
      ['changes-results', 'default-changed', "default of 'size' of 'ripple' changed from 1 to 2"]]],
  ['new required parameter', 'ts', ripple({ a: num() }), ripple({ a: num(), seed: int() }, ['seed']),
    [['breaking', 'parameter-added-required', "new required parameter 'seed' of 'ripple'"]]],
  ['new parameter with a default', 'ts', ripple({ a: num() }), ripple({ a: num(), seed: int({ default: 7 }) }),
    [['compatible', 'parameter-added-optional', "new parameter 'seed' of 'ripple' with default 7"]]],
  ['new optional parameter without a default (Python)', 'py', ripple({}), ripple({ seed: int() }),
    [['compatible', 'parameter-added-optional', "new optional parameter 'seed' of 'ripple'"]]],
  ['default removed, parameter now required', 'ts', ripple({ a: num({ default: 3 }) }), ripple({ a: num() }, ['a']),
    [['breaking', 'parameter-now-required', "'a' of 'ripple' is now required (its default 3 removed)"]]],
  ['required parameter given a default (Python)', 'py', ripple({ a: num() }, ['a']), ripple({ a: num({ default: 2 }) }),
    [['compatible', 'parameter-now-optional', "'a' of 'ripple' is now optional (default 2)"]]],
  ['number narrowed to Integer', 'ts', ripple({ segments: num({ default: 32 }) }), ripple({ segments: int({ default: 32 }) }),
    [['breaking', 'type-narrowed', "type of 'segments' of 'ripple' narrowed from number to Integer"]]],
  ['float narrowed to int (Python)', 'py', ripple({ segments: num({ default: 32 }) }), ripple({ segments: int({ default: 32 }) }),
    [['breaking', 'type-narrowed', "type of 'segments' of 'ripple' narrowed from float to int"]]],
  ['Integer widened to number', 'ts', ripple({ segments: int() }), ripple({ segments: num() }),
    [['compatible', 'type-widened', "type of 'segments' of 'ripple' widened from Integer to number"]]],
  ['str changed to float (Python)', 'py', ripple({ label: str() }), ripple({ label: num() }),
    [['breaking', 'type-changed', "type of 'label' of 'ripple' changed from str to float"]]],
  ['string narrowed to Color', 'ts', ripple({ tint: str() }), ripple({ tint: color() }),
    [['breaking', 'type-narrowed', "type of 'tint' of 'ripple' narrowed from string to Color"]]],
  ['Color widened to str (Python)', 'py', ripple({ tint: color() }), ripple({ tint: str() }),
    [['compatible', 'type-widened', "type of 'tint' of 'ripple' widened from Color to str"]]],
  ['enum value removed', 'ts', ripple({ mode: oneOf(['fast', 'fine', 'best']) }), ripple({ mode: oneOf(['fast', 'fine']) }),
    [['breaking', 'enum-value-removed', "value 'best' of 'mode' of 'ripple' removed"]]],
  ['enum widened (Python)', 'py', ripple({ mode: oneOf(['fast']) }), ripple({ mode: oneOf(['fast', 'fine']) }),
    [['compatible', 'enum-value-added', "value 'fine' of 'mode' of 'ripple' added"]]],
  ['enum widened to string', 'ts', ripple({ mode: oneOf(['fast', 'fine']) }), ripple({ mode: str() }),
    [['compatible', 'type-widened', "type of 'mode' of 'ripple' widened from 'fast' | 'fine' to string"]]],
  ['int narrowed to a Literal (Python)', 'py', ripple({ level: int() }), ripple({ level: oneOf([1, 2, 4]) }),
    [['breaking', 'type-narrowed', "type of 'level' of 'ripple' narrowed from int to Literal[1, 2, 4]"]]],
  ['minimum raised', 'ts', ripple({ r: num({ minimum: 0.1 }) }), ripple({ r: num({ minimum: 0.5 }) }),
    [['breaking', 'minimum-raised', "minimum of 'r' of 'ripple' raised from 0.1 to 0.5"]]],
  ['minimum added (Python)', 'py', ripple({ r: num() }), ripple({ r: num({ minimum: 0 }) }),
    [['breaking', 'minimum-raised', "minimum 0 added to 'r' of 'ripple'"]]],
  ['maximum lowered', 'ts', ripple({ r: num({ maximum: 10 }) }), ripple({ r: num({ maximum: 5 }) }),
    [['breaking', 'maximum-lowered', "maximum of 'r' of 'ripple' lowered from 10 to 5"]]],
  ['maximum removed (Python)', 'py', ripple({ r: num({ maximum: 10 }) }), ripple({ r: num() }),
    [['compatible', 'maximum-raised', "maximum of 'r' of 'ripple' removed (was 10)"]]],
  ['minimum lowered', 'ts', ripple({ r: num({ minimum: 1 }) }), ripple({ r: num({ minimum: -1 }) }),
    [['compatible', 'minimum-lowered', "minimum of 'r' of 'ripple' lowered from 1 to -1"]]],
  ['range moved up: minimum tightened, maximum loosened (Python)', 'py', ripple({ n: int({ minimum: 2, maximum: 256 }) }),
    ripple({ n: int({ minimum: 3, maximum: 512 }) }),
    [['breaking', 'minimum-raised', "minimum of 'n' of 'ripple' raised from 2 to 3"],
      ['compatible', 'maximum-raised', "maximum of 'n' of 'ripple' raised from 256 to 512"]]],
  ['minItems raised', 'ts', ripple({ levels: list(num(), { minItems: 1 }) }), ripple({ levels: list(num(), { minItems: 2 }) }),
    [['breaking', 'min-items-raised', "minItems of 'levels' of 'ripple' raised from 1 to 2"]]],
  ['maxItems raised (Python)', 'py', ripple({ levels: list(num(), { maxItems: 4 }) }), ripple({ levels: list(num(), { maxItems: 8 }) }),
    [['compatible', 'max-items-raised', "maxItems of 'levels' of 'ripple' raised from 4 to 8"]]],
  ['list items narrowed', 'ts', ripple({ counts: list(num()) }), ripple({ counts: list(int()) }),
    [['breaking', 'type-narrowed', "type of the items of 'counts' of 'ripple' narrowed from number to Integer"]]],
  ['item bound of a list tightened (Python)', 'py', ripple({ levels: list(num({ minimum: 0, maximum: 1 })) }),
    ripple({ levels: list(num({ minimum: 0, maximum: 0.5 })) }),
    [['breaking', 'maximum-lowered', "maximum of the items of 'levels' of 'ripple' lowered from 1 to 0.5"]]],
  ['tuple length changed (Python)', 'py', ripple({ axis: tuple([num(), num(), num()]) }), ripple({ axis: tuple([num(), num()]) }),
    [['breaking', 'type-changed', "type of 'axis' of 'ripple' changed from tuple[float, float, float] to tuple[float, float]"]]],
  ['tuple item narrowed', 'ts', ripple({ cells: tuple([num(), num()]) }), ripple({ cells: tuple([num(), int()]) }),
    [['breaking', 'type-narrowed', "type of item 1 of 'cells' of 'ripple' narrowed from number to Integer"]]],
  ['the range of every item of a tuple tightened: one change (Python)', 'py', ripple({ axis: tuple([num({ minimum: -1 }), num({ minimum: -1 })]) }),
    ripple({ axis: tuple([num({ minimum: 0 }), num({ minimum: 0 })]) }),
    [['breaking', 'minimum-raised', "minimum of each item of 'axis' of 'ripple' raised from -1 to 0"]]],
  ['tuple widened to a list', 'ts', ripple({ axis: tuple([num(), num(), num()]) }), ripple({ axis: list(num()) }),
    [['compatible', 'type-widened', "type of 'axis' of 'ripple' widened from [number, number, number] to number[]"]]],
  ['input kind changed', 'ts', ripple({ source: input('mesh') }), ripple({ source: input('volume') }),
    [['breaking', 'type-changed', "type of 'source' of 'ripple' changed from MeshInput to VolumeInput"]]],
  ['default changed', 'ts', ripple({ amplitude: num({ default: 0.15 }) }), ripple({ amplitude: num({ default: 0.2 }) }),
    [['changes-results', 'default-changed', "default of 'amplitude' of 'ripple' changed from 0.15 to 0.2"]]],
  ['enum default changed (Python)', 'py', ripple({ mode: oneOf(['fast', 'fine'], { default: 'fast' }) }),
    ripple({ mode: oneOf(['fast', 'fine'], { default: 'fine' }) }),
    [['changes-results', 'default-changed', "default of 'mode' of 'ripple' changed from 'fast' to 'fine'"]]],
  ['input default changed', 'ts', ripple({ volume: input('volume', { default: { specimen: 'ct' } }) }),
    ripple({ volume: input('volume', { default: { specimen: 'mri' } }) }),
    [['changes-results', 'default-changed', 'default of \'volume\' of \'ripple\' changed from {"specimen":"ct"} to {"specimen":"mri"}']]],
  ['default given to an optional parameter', 'ts', ripple({ seed: int() }), ripple({ seed: int({ default: 1 }) }),
    [['changes-results', 'default-added', "default 1 added to 'seed' of 'ripple': leaving it out passed no value before"]]],
  ['default taken away, still optional (Python)', 'py', ripple({ seed: int({ default: 1 }) }), ripple({ seed: int() }),
    [['changes-results', 'default-removed', "default 1 of 'seed' of 'ripple' removed: leaving it out now passes no value"]]],
  ['only descriptions changed: nothing', 'ts', ripple({ a: num({ description: 'old' }) }), ripple({ a: num({ description: 'new' }) }), []],
  ['parameters reordered: nothing (Python)', 'py', ripple({ a: num(), b: str() }), ripple({ b: str(), a: num() }), []],
  ['a progress reporter added: nothing', 'ts', { ripple: { props: { a: num() } } }, { ripple: { props: { a: num() }, reporter: 'progress' } }, []],
];

describe('the change classifier, one pair of builds per kind of change', () => {
  it('has at least 30 pairs, both languages', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(30);
    expect(TABLE.filter(([, lang]) => lang === 'py').length).toBeGreaterThanOrEqual(12);
  });

  it.each(TABLE)('%s', (_label, lang, before, after, expected) => {
    const report = compareBuilds(build(lang, before), build(lang, after));
    expect(report.changes.map((change) => [change.class, change.kind, change.what])).toEqual(expected);
    expect(report.failed).toBe(expected.some(([cls]) => cls === 'breaking'));
    for (const change of report.changes) expect(change.source.file).toBe(lang === 'py' ? 'plugin.py' : 'index.ts');
  });
});

describe('the major-version rule', () => {
  const before = ripple({ a: num() });
  const after = ripple({});
  const verdict = (from: string, to: string) => compareBuilds(build('ts', before, from), build('ts', after, to));

  it('a breaking change fails unless the major version went up', () => {
    expect(verdict('0.1.0', '0.1.1').failed).toBe(true);
    expect(verdict('1.4.2', '1.5.0').failed).toBe(true);
    expect(verdict('0.1.0', '1.0.0').failed).toBe(false);
    expect(verdict('1.4.2', 'v2.0.0-beta.1').failed).toBe(false);
    expect(verdict('2.0.0', '1.0.0').failed).toBe(true);
    expect(verdict('1.0.0', 'not a version').failed).toBe(true);
    expect(verdict('1.0.0', '2.0.0').plugins).toEqual([{ plugin: 'lab', from: '1.0.0', to: '2.0.0', major_bumped: true, breaking: 1, allowed: true }]);
  });

  it('a manifest without a version is 0.0.0; a plugin gone fails', () => {
    const [old] = build('ts', before);
    const { version: _version, ...unversioned } = old!;
    const report = compareBuilds([unversioned], build('ts', after, '1.0.0'));
    expect(report.plugins[0]).toMatchObject({ from: '0.0.0', to: '1.0.0', allowed: true });
    const gone = compareBuilds(build('ts', before, '1.0.0'), []);
    expect(gone.plugins[0]).toMatchObject({ from: '1.0.0', to: null, allowed: false });
    expect(gone.changes.map((c) => c.kind)).toEqual(['function-removed']);
  });

  it('changes that are not breaking never fail, whatever the versions', () => {
    const newer = ripple({ a: num({ default: 2 }), b: str({ default: 'x' }) });
    const report = compareBuilds(build('py', ripple({ a: num({ default: 1 }) }), '3.0.0'), build('py', newer, '1.0.0'));
    expect(report.counts).toEqual({ breaking: 0, 'changes-results': 1, compatible: 1 });
    expect(report.failed).toBe(false);
  });

  it('reads semver majors', () => {
    expect([majorOf('1.2.3'), majorOf('v10.0.0'), majorOf('0.1.0-rc.1+b5'), majorOf('1.2'), majorOf('latest')]).toEqual([1, 10, 0, null, null]);
  });
});
