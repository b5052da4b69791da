/**
 * @module assemble-level
 * One level of one or more level sets as a single mesh in physical units, for a client that
 * takes a whole mesh (the Godot headset through `/data`): every fragment of the level decoded
 * (draco-decode.ts) and placed as the manifest says, with smooth normals, and each set painted
 * in its colour when asked (every segment of a segmentation at once). Runs on an encode thread.
 */
import { MeshBuilder } from '../geometry/mesh-builder.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { decodeDraco } from './draco-decode.ts';
import { placement } from './level-steps.ts';
import type { SegmentLods } from './level-set.ts';

/** A level of a set, and the colour its vertices are painted (none: unpainted). */
export interface LevelPart {
  lods: SegmentLods;
  level: number;
  rgb?: [number, number, number];
}

export async function assembleLevel(parts: LevelPart[]): Promise<StoredResult> {
  const triangles = parts.reduce((n, part) => n + part.lods.triangles[part.level]!, 0);
  const out = new MeshBuilder(Math.max(256, triangles));
  for (const { lods, level, rgb } of parts) {
    const from = out.vertexCount;
    // A mirrored transform turns faces inside out unless their winding is mirrored too.
    const flip = lods.transform[0]! * lods.transform[5]! * lods.transform[10]! < 0;
    for (const fragment of lods.fragments) {
      if (fragment.level !== level) continue;
      const place = placement(lods.plan, lods.transform, level, fragment.cell);
      const [offset, length] = fragment.draco;
      const { positions, indices } = await decodeDraco(lods.draco.subarray(offset, offset + length));
      const base = out.vertexCount;
      for (let v = 0; v < positions.length; v += 3) {
        out.vertex(...([0, 1, 2].map((k) => place.translation[k]! + place.scale[k]! * positions[v + k]!) as [number, number, number]));
      }
      for (let t = 0; t < indices.length; t += 3) {
        if (flip) out.triangle(base + indices[t]!, base + indices[t + 2]!, base + indices[t + 1]!);
        else out.triangle(base + indices[t]!, base + indices[t + 1]!, base + indices[t + 2]!);
      }
    }
    if (rgb) out.paint(from, rgb);
  }
  return out.finish();
}
