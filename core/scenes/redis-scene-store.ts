/**
 * @module redis-scene-store
 * (placeholder, written once the Redis plumbing is merged)
 */
import type { Redis } from 'ioredis';
import type { RoomScene } from '../client/scene-types.ts';
import { EMPTY_SCENE, type SceneOp } from './scene-ops.ts';
import { OpSceneStore, type SceneWrite } from './scene-store.ts';

export class RedisSceneStore extends OpSceneStore {
  constructor(_redis: Redis) {
    super();
  }
  async get(_roomId: string): Promise<RoomScene> {
    return EMPTY_SCENE;
  }
  async update(_roomId: string, _op: SceneOp): Promise<SceneWrite> {
    return { before: EMPTY_SCENE, scene: EMPTY_SCENE, changed: false };
  }
  close(): void {}
}
