/**
 * The viewer is a package of its own: it imports the client library, the shared wire shapes,
 * three.js and the VR panel kit, never the server; the server never imports the viewer or the
 * client library (build/tools/layering/viewer-boundary.ts). Inside, it is layered as core/ is:
 * a room (a folder, or a file at its root) imports only from rooms below it in the table of
 * build/tools/layering/viewer-layers.ts, so the stage knows no layer kind and no two folders
 * import each other. `npm run layering` prints the same.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { againstTable, coreImports, mutualFolders, roomsIn } from '../../build/tools/layering/core-imports.ts';
import { allSpecifiersOf, boundaryCrossings, crossingOf } from '../../build/tools/layering/viewer-boundary.ts';
import { VIEWER_LAYERS, VIEWER_TABLE } from '../../build/tools/layering/viewer-layers.ts';
import { layerOf } from '../../build/tools/layering/core-layers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VIEWER = fileURLToPath(new URL('../../viewer/', import.meta.url));

describe('the border between viewer/ and core/', () => {
  it('is crossed by no import, type imports and dynamic ones included', () => {
    expect(boundaryCrossings(ROOT).map((c) => `${c.from} -> ${c.to}: ${c.why}`)).toEqual([]);
  });

  it('reads every kind of import', () => {
    const text = [
      "import type { HostContext } from '../core/host-context.ts';",
      "import './styles.css';",
      "export { x } from './x.ts';",
      "const m = await import('../core/http/routes-scenes.ts');",
      "import { Mesh } from 'three';",
    ].join('\n');
    expect(allSpecifiersOf(text).sort()).toEqual(['../core/host-context.ts', '../core/http/routes-scenes.ts', './styles.css', './x.ts', 'three']);
  });

  it('lets the viewer import the client library, the wire shapes, three.js and the VR panel kit', () => {
    expect(crossingOf('viewer/room/room-scene.ts', '../../core/client/client.ts')).toBeNull();
    expect(crossingOf('viewer/room/room-scene.ts', '../../core/wire/scene-types.ts')).toBeNull();
    expect(crossingOf('viewer/stage/stage.ts', 'three/examples/jsm/controls/OrbitControls.js')).toBeNull();
    expect(crossingOf('viewer/xr/vr-panel.ts', '@pmndrs/uikit')).toBeNull();
    expect(crossingOf('core/client/client.ts', '../wire/wire-types.ts')).toBeNull();
  });

  it('catches a planted import across the border, either way', () => {
    expect(crossingOf('viewer/room/room-scene.ts', '../../core/scenes/scene-store.ts')?.why).toBe('the viewer imports the server');
    expect(crossingOf('viewer/stage/stage.ts', 'node:fs')?.why).toBe('the viewer imports the package node:fs');
    expect(crossingOf('viewer/stage/stage.ts', 'fastify')?.why).toBe('the viewer imports the package fastify');
    expect(crossingOf('core/http/routes-scenes.ts', '../../viewer/room/room-scene.ts')?.why).toBe('core/ imports the viewer');
    expect(crossingOf('core/scenes/scene-store.ts', '../client/scene-client.ts')?.why).toMatch(/the server imports the client library/);
    expect(crossingOf('core/wire/scene-types.ts', '../../viewer/stage/stage.ts')?.why).toBe('core/ imports the viewer');
  });
});

describe('the layering of viewer/', () => {
  const imports = coreImports(VIEWER);

  it('has no import against the table', () => {
    expect(imports.length).toBeGreaterThan(400);
    // Stylesheets count like any other import.
    expect(imports).toContainEqual({ from: 'panels/annotation-panel.ts', to: 'layers/marks/marks.css' });
    expect(againstTable(imports, VIEWER_TABLE).map((a) => `${a.from} -> ${a.to}: ${a.why}`)).toEqual([]);
  });

  it('places every room of viewer/ exactly once', () => {
    expect(roomsIn(VIEWER).filter((room) => layerOf(room, VIEWER_LAYERS) === undefined)).toEqual([]);
    const listed = VIEWER_LAYERS.flat();
    expect(listed.filter((room, at) => listed.indexOf(room) !== at)).toEqual([]);
  });

  it('names no room that is gone (a stale name would hold a place nothing takes)', () => {
    expect(VIEWER_LAYERS.flat().filter((room) => !existsSync(path.join(VIEWER, room)))).toEqual([]);
  });

  it('has no two folders importing each other', () => {
    expect(mutualFolders(imports)).toEqual([]);
  });

  it('catches an arrow back up: the stage importing a kind, a kind a panel, VR the room', () => {
    const against = againstTable(
      [
        { from: 'stage/stage.ts', to: 'layers/volume/slice-link.ts' },
        { from: 'layers/points/points-object.ts', to: 'panels/stats-view.ts' },
        { from: 'xr/page-vr.ts', to: 'room/room-scene.ts' },
        { from: 'panels/annotation-panel.ts', to: 'layers/marks/mark-list.ts' },
        { from: 'room/layer-loader.ts', to: 'layers/render-data.ts' },
      ],
      VIEWER_TABLE,
    );
    expect(against.map((a) => `${a.from} -> ${a.to}`)).toEqual([
      'stage/stage.ts -> layers/volume/slice-link.ts',
      'layers/points/points-object.ts -> panels/stats-view.ts',
      'xr/page-vr.ts -> room/room-scene.ts',
    ]);
    expect(mutualFolders([
      { from: 'room/layer-rows.ts', to: 'xr/vr-layer-list.ts' },
      { from: 'xr/page-vr.ts', to: 'room/room-scene.ts' },
    ])).toEqual(['room/ <-> xr/']);
  });
});
