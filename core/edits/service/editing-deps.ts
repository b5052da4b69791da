/**
 * @module editing-deps
 * What the editing of rooms' labels layers is built with: the rooms' scenes, where layers' results
 * come from, where edits are kept, the result budget and the encode pool.
 */
import type { LabelIndex } from '../../labels/label-index.ts';
import type { LayerSourceDeps } from '../../scenes/service/layer-sources.ts';
import type { RoomScenes } from '../../scenes/service/room-scenes.ts';
import type { SceneStore } from '../../scenes/scene-store.ts';
import type { EditStore } from '../edit-store.ts';
import type { VersionVoxelsRunner } from '../version-voxels.ts';
import type { RegionEntriesRunner } from '../version-region.ts';
import type { LayerVersionsDeps, StoredVolume } from './layer-versions.ts';

/** With what LayerVersions takes of them: the result budget and who is told of each version made. */
export interface EditingDeps extends Pick<LayerVersionsDeps, 'budget' | 'versions'> {
  scenes: Pick<RoomScenes, 'scene' | 'layerData'>;
  sources: LayerSourceDeps;
  store: EditStore;
  /** Puts a version's voxels together off the event loop (the encode pool), or finds its changed segments' label entries in boxes there. */
  assemble: VersionVoxelsRunner & RegionEntriesRunner;
  /** Where the layer's current version is set as its result, once its id is known. */
  sceneStore: Pick<SceneStore, 'setResult'>;
  warn: (message: string, err: unknown) => void;
  /** A base result's label index (what each version's is found from). */
  labelIndex(volume: StoredVolume, client: string): Promise<LabelIndex>;
  /** Readies the encode threads for an edited layer's work (its first changed surfaces and label entries). */
  warmThreads?: () => Promise<void>;
}
