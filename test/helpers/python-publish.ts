/**
 * @module python-publish
 * Runs a Python script with the `vitrine` module on its path (Debian's interpreter, numpy),
 * the host's URL in VITRINE_URL; resolves with its standard output's last line parsed as JSON,
 * or fails with everything it printed.
 */
import { execFile } from 'node:child_process';
import { PYTHON_MODULE_DIR } from '../../core/python/python-module-dir.ts';
import { TEST_PYTHON } from './test-python.ts';

export function runPython<T>(script: string, url: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, PYTHONPATH: PYTHON_MODULE_DIR, PYTHONDONTWRITEBYTECODE: '1', VITRINE_URL: url };
    execFile(TEST_PYTHON, ['-c', script], { env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`the Python script failed (${error.message}):\n${stdout}\n${stderr}`));
      const last = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`the Python script printed no JSON last line:\n${stdout}\n${stderr}`));
      }
    });
  });
}

/** What {@link publishVolumeScript} prints. */
export interface Published {
  published_at: number;
  publish_ms: number;
  show_ms: number;
  answer: { id: string };
  entry: { specimen_id: string };
}

/**
 * A script that publishes a 256×256×128 uint16 volume from numpy as `id` and shows it in
 * `room`; it prints `{"published_at": <ms since the epoch, just before publish()>,
 * "publish_ms", "show_ms" (how long each call took), "answer", "entry"}`.
 */
export function publishVolumeScript(id: string, room: string, title = 'A numpy volume'): string {
  return `
import json, time
import numpy as np
from vitrine import Client, VolumeResult
c = Client(__import__("os").environ["VITRINE_URL"])
z, y, x = np.ogrid[0:128, 0:256, 0:256]
r = np.sqrt((x - 128.0) ** 2 + (y - 128.0) ** 2 + (2.0 * (z - 64.0)) ** 2)
volume = (np.clip(1 - r / 120.0, 0, 1) * 50000 + (x % 16) * 100).astype(np.uint16)
assert volume.shape == (128, 256, 256) and volume.dtype == np.uint16
t0 = time.time()
answer = c.publish(${JSON.stringify(id)}, VolumeResult.from_numpy(volume, spacing=(2.0, 1.0, 1.0)), display_name=${JSON.stringify(title)})
t1 = time.time()
c.show(${JSON.stringify(room)}, ${JSON.stringify(id)})
t2 = time.time()
print(json.dumps({"published_at": t0 * 1000, "publish_ms": (t1 - t0) * 1000, "show_ms": (t2 - t1) * 1000,
                  "answer": answer, "entry": c.entry(${JSON.stringify(room)})}))
`;
}
