/**
 * The viewer knows from a static specimen's metadata whether the host shapes its file: its
 * list of shaped extensions is the host's parsers that read a volume or a mesh, no more and no
 * fewer, so the page neither asks a delivery of a file sent as it is nor fetches whole a file
 * it could have refined.
 */
import { describe, expect, it } from 'vitest';
import { inferSpecimenType } from '../../core/catalog/infer-specimen-type.ts';
import { PARSED_EXTENSIONS } from '../../core/formats/parse-file.ts';
import { hostShapesStatic, SHAPED_EXTENSIONS } from '../../viewer/room/static-shaping.ts';

const staticMeta = (type: string, data_file: string | null) => ({ type, is_dynamic: false, data_file });

describe('static shaping', () => {
  it('lists exactly the parsed extensions of volumes and meshes', () => {
    for (const type of ['volume', 'mesh'] as const) {
      const parsed = PARSED_EXTENSIONS.filter((ext) => inferSpecimenType(`x${ext}`) === type);
      expect([...SHAPED_EXTENSIONS[type]].sort()).toEqual(parsed.sort());
    }
  });

  it('shapes static volumes and meshes whose file a parser reads, and nothing else', () => {
    expect(hostShapesStatic(staticMeta('volume', 'x.npy'))).toBe(true);
    expect(hostShapesStatic(staticMeta('mesh', 'Knot.OBJ'))).toBe(true);
    expect(hostShapesStatic(staticMeta('mesh', 'knot.glb'))).toBe(true);
    expect(hostShapesStatic(staticMeta('mesh', 'knot.gltf'))).toBe(false);
    expect(hostShapesStatic(staticMeta('point_cloud', 'stars.ply'))).toBe(false);
    expect(hostShapesStatic(staticMeta('volume', 'scan.nii.gz'))).toBe(false);
    expect(hostShapesStatic(staticMeta('mesh', 'dir.obj/mesh'))).toBe(false);
    // A relayed specimen names no data file: the host sends it as the worker does.
    expect(hostShapesStatic(staticMeta('volume', null))).toBe(false);
    expect(hostShapesStatic({ type: 'volume', is_dynamic: true, data_file: 'x.npy' })).toBe(false);
  });
});
