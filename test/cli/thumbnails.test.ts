/**
 * `vitrine thumbnails` in a fresh plugin project: it renders the declared specimen's
 * thumbnail into `plugins/<plugin>/thumbnails/<id>.png`, and `vitrine build` then ships it and
 * names it in the manifest with no `thumbnail:` in the declaration. A Python plugin's declared
 * specimens (`specimens = [...]`) are rendered the same way, run in a plugin process as the host
 * runs them; one whose function fails is named with the reason. Bad arguments are clear.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli-path.ts';

let project: string;

function vitrine(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [CLI, ...args], { cwd: project }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

beforeAll(async () => {
  project = path.join(mkdtempSync(path.join(tmpdir(), 'vitrine-thumbs-')), 'shapes');
  await promisify(execFile)(process.execPath, [CLI, 'init', project]);
});

describe('vitrine thumbnails', () => {
  it('renders a declared specimen into thumbnails/<id>.png, which vitrine build then ships undeclared', async () => {
    const source = readFileSync(path.join(project, 'plugins', 'shapes', 'index.ts'), 'utf8');
    expect(source).not.toContain('thumbnail:');
    const id = /id: '([^']+)'/.exec(source)![1]!;
    const run = await vitrine(['thumbnails']);
    expect(run.code, run.stderr).toBe(0);
    const file = path.join(project, 'plugins', 'shapes', 'thumbnails', `${id}.png`);
    expect(run.stdout).toContain(file);
    const png = PNG.sync.read(readFileSync(file));
    expect([png.width, png.height]).toEqual([256, 256]);
    // A picture, not a blank: the subject's pixels differ from the corner's backdrop.
    const corner = png.data.readUInt32BE(0);
    const centre = png.data.readUInt32BE((128 * 256 + 128) * 4);
    expect(centre).not.toBe(corner);

    const build = await vitrine(['build', 'plugins', '--out', 'out']);
    expect(build.code, build.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(project, 'out', 'shapes', 'manifest.json'), 'utf8')) as {
      specimens: { id: string; thumbnail: string | null }[];
    };
    expect(manifest.specimens.find((s) => s.id === id)?.thumbnail).toBe(`thumbnails/${id}.png`);
    expect(readFileSync(path.join(project, 'out', 'shapes', 'thumbnails', `${id}.png`)).equals(readFileSync(file))).toBe(true);
  }, 120_000);

  it("renders a Python plugin's declared specimens too, and names one it cannot render with the reason", async () => {
    const dir = path.join(project, 'plugins', 'py-scans');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'plugin.py'),
      [
        'from vitrine import VolumeResult',
        '',
        '',
        'def noisy_blob(size: int = 24) -> VolumeResult:',
        '    "A blob in the middle of a cube."',
        '    import numpy as np',
        '    z, y, x = np.mgrid[0:size, 0:size, 0:size] / (size - 1) - 0.5',
        '    return VolumeResult.from_numpy(np.exp(-(x * x + y * y + z * z) * 20).astype(np.float32))',
        '',
        '',
        'def broken(size: int = 4) -> VolumeResult:',
        '    "Always fails."',
        '    raise ValueError("the scanner is off")',
        '',
        '',
        'specimens = [',
        '    {"id": "noisy-blob", "function": "noisy_blob", "display_name": "Noisy blob"},',
        '    {"id": "broken-scan", "function": "broken", "display_name": "Broken scan"},',
        ']',
        '',
      ].join('\n'),
    );
    const run = await vitrine(['thumbnails', 'plugins', 'py-scans']);
    const file = path.join(dir, 'thumbnails', 'noisy-blob.png');
    expect(run.stdout, run.stderr).toContain(file);
    const png = PNG.sync.read(readFileSync(file));
    expect([png.width, png.height]).toEqual([256, 256]);
    expect(png.data.readUInt32BE((128 * 256 + 128) * 4)).not.toBe(png.data.readUInt32BE(0));
    // The failing one is named with its reason, and the exit says something was not rendered.
    expect(run.stderr).toMatch(/py-scans\/broken-scan: not rendered: .*the scanner is off/);
    expect(run.code).toBe(1);

    // Asked for by its id alone, the Python specimen renders and the command succeeds.
    const one = await vitrine(['thumbnails', 'plugins', 'noisy-blob']);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain('py-scans/noisy-blob: computed in');
    expect(one.stdout).not.toContain('broken-scan');
  }, 180_000);

  it('refuses an unknown option and a missing source folder', async () => {
    const missing = await vitrine(['thumbnails', '--specimens']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--specimens needs a folder');
    const bad = await vitrine(['thumbnails', '--size', '3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown option '--size'");
  });
});
