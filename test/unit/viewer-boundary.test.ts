/**
 * The viewer is a package of its own: it imports the client library, the shared wire shapes,
 * three.js and the VR panel kit, never the server; the server never imports the viewer or the
 * client library (build/tools/layering/viewer-boundary.ts). `npm run layering` prints the same.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allSpecifiersOf, boundaryCrossings, crossingOf } from '../../build/tools/layering/viewer-boundary.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

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
