import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findSpecimenOnDisk, scanSpecimensDir } from '../../core/catalog/specimen-scanner.ts';
import type { SpecimenRecord } from '../../core/catalog/specimen-record.ts';

let base: string;
let root: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'vitrine-scan-')));
  root = path.join(base, 'specimens');
  await mkdir(root);
  await writeFile(path.join(base, 'secret.txt'), 'top secret');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Writes a specimen folder: `files` maps names to contents; objects are written as JSON. */
async function folder(name: string, files: Record<string, string | Buffer | object>): Promise<string> {
  const dir = path.join(root, name);
  await mkdir(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    const bytes = typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content);
    await writeFile(path.join(dir, file), bytes);
  }
  return dir;
}

function byId(records: SpecimenRecord[], id: string): SpecimenRecord {
  const found = records.find((r) => r.id === id);
  if (!found) throw new Error(`no record ${id} in ${records.map((r) => r.id).join(', ')}`);
  return found;
}

describe('scanSpecimensDir', () => {
  it('reads the reference format (story_text list, thumbnail_file, data_file)', async () => {
    await folder('brain', {
      'specimen.json': {
        id: 'brain',
        display_name: 'Human Brain',
        description: 'A brain surface',
        type: 'mesh',
        data_file: 'brain.stl',
        thumbnail_file: 'thumbnail.png',
        story_text: ['First paragraph.', 'Second paragraph.'],
        tags: ['anatomy', 'mesh'],
      },
      'brain.stl': 'solid x\nendsolid x\n',
      'thumbnail.png': 'png-bytes',
    });
    const { records, problems } = await scanSpecimensDir(root);
    expect(problems).toEqual([]);
    const brain = byId(records, 'brain');
    expect(brain).toMatchObject({
      display_name: 'Human Brain',
      description: 'A brain surface',
      type: 'mesh',
      tags: ['anatomy', 'mesh'],
      is_dynamic: false,
      function_name: null,
      thumbnail_file: 'thumbnail.png',
      story: 'First paragraph.\n\nSecond paragraph.',
      origin: 'disk',
    });
    expect(brain.data).toEqual({ kind: 'file', path: path.join(root, 'brain', 'brain.stl'), fileName: 'brain.stl' });
    expect(brain.thumbnail).toEqual({ kind: 'file', path: path.join(root, 'brain', 'thumbnail.png') });
  });

  it('reads a dynamic specimen with a schema as schema_override and no data', async () => {
    const schema = {
      type: 'object',
      properties: { major_radius: { type: 'number', default: 1, minimum: 0.5, maximum: 3 } },
    };
    await folder('parametric_torus', {
      'specimen.json': {
        id: 'parametric_torus',
        display_name: 'Parametric Torus',
        type: 'mesh',
        thumbnail_file: 'thumbnail.png',
        function_name: 'generate_torus',
        tags: ['parametric'],
        schema,
      },
    });
    const { records, problems } = await scanSpecimensDir(root);
    const torus = byId(records, 'parametric_torus');
    expect(torus.is_dynamic).toBe(true);
    expect(torus.function_name).toBe('generate_torus');
    expect(torus.schema_override).toEqual(schema);
    expect(torus.data).toBeUndefined();
    // The named thumbnail is missing and there is no default one: placeholder, and a problem line.
    expect(torus.thumbnail).toEqual({ kind: 'none' });
    expect(torus.thumbnail_file).toBeNull();
    expect(problems.some((p) => p.startsWith('parametric_torus:') && p.includes('thumbnail.png'))).toBe(true);
  });

  it('fills defaults from the folder name and infers the type from the data file', async () => {
    await folder('bare-volume', { 'specimen.json': { data_file: 'v.npy' }, 'v.npy': Buffer.alloc(0) });
    await folder('cloud', { 'specimen.json': { data_file: 'pts.xyz' }, 'pts.xyz': '0 0 0\n' });
    await folder('photo', { 'specimen.json': { data_file: 'img.PNG' }, 'img.PNG': 'x' });
    await folder('odd', { 'specimen.json': { data_file: 'thing.bin' }, 'thing.bin': 'x' });
    await folder('empty', { 'specimen.json': {} });
    const { records } = await scanSpecimensDir(root);
    const vol = byId(records, 'bare-volume');
    expect(vol).toMatchObject({ display_name: 'bare-volume', description: '', type: 'volume', tags: [], story: null });
    expect(vol.data).toMatchObject({ kind: 'npy', fileName: 'v.npy' });
    expect(byId(records, 'cloud').type).toBe('point_cloud');
    expect(byId(records, 'photo').type).toBe('image');
    expect(byId(records, 'odd').type).toBe('mesh');
    expect(byId(records, 'empty')).toMatchObject({ type: 'mesh', is_dynamic: false, thumbnail: { kind: 'none' } });
    expect(byId(records, 'empty').data).toBeUndefined();
  });

  it('takes spacing and origin from the .npy sidecar', async () => {
    await folder('ct', {
      'specimen.json': { data_file: 'scan.npy', type: 'volume' },
      'scan.npy': Buffer.alloc(0),
      'scan.json': { spacing: [0.5, 0.5, 2], origin: [-16, -16, 0], units: 'mm' },
    });
    await folder('ct-bad-sidecar', {
      'specimen.json': { data_file: 'scan.npy' },
      'scan.npy': Buffer.alloc(0),
      'scan.json': '{ nope',
    });
    const { records, problems } = await scanSpecimensDir(root);
    expect(byId(records, 'ct').data).toEqual({
      kind: 'npy',
      path: path.join(root, 'ct', 'scan.npy'),
      fileName: 'scan.npy',
      spacing: [0.5, 0.5, 2],
      origin: [-16, -16, 0],
    });
    expect(byId(records, 'ct-bad-sidecar').data).toEqual({ kind: 'npy', path: path.join(root, 'ct-bad-sidecar', 'scan.npy'), fileName: 'scan.npy' });
    expect(problems.some((p) => p.startsWith('ct-bad-sidecar:') && p.includes('scan.json'))).toBe(true);
  });

  it('finds a default thumbnail.* when none is named', async () => {
    await folder('auto-thumb', { 'specimen.json': { data_file: 'a.obj' }, 'a.obj': 'v 0 0 0\n', 'thumbnail.jpg': 'jpg' });
    const { records } = await scanSpecimensDir(root);
    const rec = byId(records, 'auto-thumb');
    expect(rec.thumbnail).toEqual({ kind: 'file', path: path.join(root, 'auto-thumb', 'thumbnail.jpg') });
    expect(rec.thumbnail_file).toBe('thumbnail.jpg');
  });

  it('keeps a data URI thumbnail, and drops a malformed one', async () => {
    await folder('uri', { 'specimen.json': { thumbnail: 'data:image/png;base64,iVBORw0KGgo=' } });
    await folder('bad-uri', { 'specimen.json': { thumbnail_file: 'data:image/png;base64,@@@' } });
    const { records, problems } = await scanSpecimensDir(root);
    expect(byId(records, 'uri').thumbnail).toEqual({ kind: 'data-uri', uri: 'data:image/png;base64,iVBORw0KGgo=' });
    expect(byId(records, 'bad-uri').thumbnail).toEqual({ kind: 'none' });
    expect(problems.some((p) => p.startsWith('bad-uri:'))).toBe(true);
  });

  it('keeps a specimen whose data file is missing, and says so', async () => {
    await folder('ghost', { 'specimen.json': { data_file: 'gone.glb' } });
    const { records, problems } = await scanSpecimensDir(root);
    expect(byId(records, 'ghost').data).toEqual({ kind: 'file', path: path.join(root, 'ghost', 'gone.glb'), fileName: 'gone.glb' });
    expect(problems.some((p) => p.startsWith('ghost:') && p.includes('gone.glb'))).toBe(true);
  });

  it('never lets a path field reach outside the specimens directory', async () => {
    const escapes = ['../../secret.txt', '/etc/passwd', path.join(base, 'secret.txt'), '..\\..\\secret.txt', 'C:\\secret.txt', 'a\u0000b'];
    let i = 0;
    for (const bad of escapes) {
      await folder(`escape-data-${i}`, { 'specimen.json': { data_file: bad } });
      await folder(`escape-thumb-${i}`, { 'specimen.json': { thumbnail_file: bad } });
      i++;
    }
    const linkDir = await folder('escape-link', { 'specimen.json': { data_file: 'link.txt', thumbnail_file: 'thumb.png' } });
    await symlink(path.join(base, 'secret.txt'), path.join(linkDir, 'link.txt'));
    await symlink(path.join(base, 'secret.txt'), path.join(linkDir, 'thumb.png'));
    const sideDir = await folder('escape-sidecar', { 'specimen.json': { data_file: 'v.npy' }, 'v.npy': Buffer.alloc(0) });
    await writeFile(path.join(base, 'outside.json'), JSON.stringify({ spacing: [9, 9, 9] }));
    await symlink(path.join(base, 'outside.json'), path.join(sideDir, 'v.json'));

    const { records, problems } = await scanSpecimensDir(root);
    for (const record of records) {
      const paths = [record.data && 'path' in record.data ? record.data.path : null, record.thumbnail.kind === 'file' ? record.thumbnail.path : null];
      for (const p of paths) if (p !== null) expect(p.startsWith(root + path.sep), `${record.id}: ${p}`).toBe(true);
      expect(record.data?.kind === 'npy' && record.data.spacing).toBeFalsy();
    }
    for (let j = 0; j < escapes.length; j++) {
      expect(byId(records, `escape-data-${j}`).data).toBeUndefined();
      expect(byId(records, `escape-thumb-${j}`).thumbnail).toEqual({ kind: 'none' });
      expect(problems.some((p) => p.startsWith(`escape-data-${j}:`) && p.includes('data_file'))).toBe(true);
      expect(problems.some((p) => p.startsWith(`escape-thumb-${j}:`) && p.includes('thumbnail_file'))).toBe(true);
    }
    expect(byId(records, 'escape-link').data).toBeUndefined();
    expect(byId(records, 'escape-link').thumbnail).toEqual({ kind: 'none' });
  });

  it('skips a symlinked specimen folder that points outside', async () => {
    const outsideSpecimen = path.join(base, 'outside-specimen');
    await mkdir(outsideSpecimen);
    await writeFile(path.join(outsideSpecimen, 'specimen.json'), JSON.stringify({ id: 'sneaky', data_file: 'd.glb' }));
    await writeFile(path.join(outsideSpecimen, 'd.glb'), 'x');
    await symlink(outsideSpecimen, path.join(root, 'sneaky'));
    const { records, problems } = await scanSpecimensDir(root);
    expect(records.map((r) => r.id)).not.toContain('sneaky');
    expect(problems.some((p) => p.startsWith('sneaky:'))).toBe(true);
  });

  it('reports malformed metadata without crashing, and keeps the good specimens', async () => {
    await folder('good', { 'specimen.json': { display_name: 'Good' } });
    await folder('broken-json', { 'specimen.json': '{ "id": "x", ' });
    await folder('not-object', { 'specimen.json': '[1, 2, 3]' });
    await folder('bad-id', { 'specimen.json': { id: '../evil' } });
    await folder('bad field types', { 'specimen.json': { id: 'typed', display_name: 42, tags: ['a', 3], schema: 'nope', story_text: 7 } });
    await folder('no-metadata', { 'readme.txt': 'not a specimen' });
    await writeFile(path.join(root, 'stray-file.json'), '{}');
    const { records, problems } = await scanSpecimensDir(root);
    expect(records.map((r) => r.id)).toEqual(['good', 'typed']);
    expect(byId(records, 'typed')).toMatchObject({ display_name: 'typed', tags: ['a'], story: null });
    expect(problems.some((p) => p.startsWith('broken-json:') && p.includes('not valid JSON'))).toBe(true);
    expect(problems.some((p) => p.startsWith('not-object:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('bad-id:') && p.includes('not a valid id'))).toBe(true);
    expect(problems.filter((p) => p.startsWith('bad field types:')).length).toBeGreaterThanOrEqual(3);
    expect(problems.some((p) => p.startsWith('no-metadata'))).toBe(false);
  });

  it('skips duplicate ids after the first folder, and sorts by id', async () => {
    await folder('b-folder', { 'specimen.json': { id: 'zeta' } });
    await folder('a-folder', { 'specimen.json': { id: 'alpha' } });
    await folder('c-folder', { 'specimen.json': { id: 'alpha', display_name: 'second' } });
    const { records, problems } = await scanSpecimensDir(root);
    expect(records.map((r) => r.id)).toEqual(['alpha', 'zeta']);
    expect(byId(records, 'alpha').display_name).toBe('alpha');
    expect(problems.some((p) => p.startsWith('c-folder:') && p.includes("'alpha'"))).toBe(true);
  });

  it('ignores data_file on a dynamic specimen, with a problem line', async () => {
    await folder('dyn', { 'specimen.json': { function_name: 'make', data_file: 'x.glb' }, 'x.glb': 'x' });
    const { records, problems } = await scanSpecimensDir(root);
    expect(byId(records, 'dyn').data).toBeUndefined();
    expect(problems.some((p) => p.startsWith('dyn:') && p.includes('data_file'))).toBe(true);
  });

  it('answers zero records and one problem for a missing directory', async () => {
    const result = await scanSpecimensDir(path.join(base, 'does-not-exist'));
    expect(result.records).toEqual([]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toContain('does not exist');
  });

  it('finds one specimen folder by id without a full scan', async () => {
    await folder('late', { 'specimen.json': { display_name: 'Late arrival', data_file: 'l.obj' }, 'l.obj': 'v 0 0 0\n' });
    await folder('other-name', { 'specimen.json': { id: 'renamed' } });
    expect(await findSpecimenOnDisk(root, 'late')).toMatchObject({ id: 'late', display_name: 'Late arrival', type: 'mesh' });
    expect(await findSpecimenOnDisk(root, 'other-name')).toBeNull();
    expect(await findSpecimenOnDisk(root, 'nope')).toBeNull();
    expect(await findSpecimenOnDisk(root, '..')).toBeNull();
    expect(await findSpecimenOnDisk(path.join(base, 'missing-root'), 'late')).toBeNull();
  });

  it('scans a thousand folders', async () => {
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        folder(`s${String(i).padStart(4, '0')}`, { 'specimen.json': { display_name: `Specimen ${i}`, data_file: 'd.obj' }, 'd.obj': 'v 0 0 0\n' }),
      ),
    );
    const { records, problems } = await scanSpecimensDir(root);
    expect(problems).toEqual([]);
    expect(records).toHaveLength(1000);
    expect(records[0]!.id).toBe('s0000');
    expect(records[999]!.display_name).toBe('Specimen 999');
  });
});
