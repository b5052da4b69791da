/**
 * Faults of Python plugin functions stay theirs: a process that exits or runs out of memory
 * fails only the computation it ran and is replaced; DELETE stops a function that never
 * yields (interrupted) or ignores the interrupt (killed), and the next call answers.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createTestApp, room, waitForJob } from '../helpers/create-test-app.ts';
import { PYTHON, pythonPluginsDir } from '../helpers/python-plugins.ts';
import { waitFor } from '../helpers/wait-for.ts';

async function pythonApp(processes = 2) {
  // 1 GiB of address space each: the memory-hungry function fails fast, not after the machine's half.
  return createTestApp({
    pluginsDir: await pythonPluginsDir(),
    python: PYTHON,
    pythonProcesses: processes,
    pythonMaxBytes: 2 ** 30,
    poolSize: 2,
    cancelGraceMs: 300,
  });
}

/**
 * The plugin processes (`python -m vitrine._runner`) this test process started and that are not
 * in `earlier`: those of hosts of other test files, and of this file's earlier tests still
 * closing, are not the ones a test looks at.
 */
function runnerPids(earlier: ReadonlySet<number> = new Set()): number[] {
  const out = execFileSync('ps', ['-eo', 'pid,ppid,args'], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => l.includes('vitrine._runner'))
    .map((l) => l.trim().split(/\s+/).map(Number))
    .filter(([pid, ppid]) => ppid === process.pid && !earlier.has(pid!))
    .map(([pid]) => pid!);
}

describe('faults in Python plugin functions', () => {
  it('an exiting process fails only its own computation: 20 other requests in flight all answer', async () => {
    const app = await pythonApp();
    const others = Array.from({ length: 20 }, (_, i) =>
      app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'triangle', kwargs: { scale: i + 1 } } }),
    );
    const crash = app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'crash' } });
    const answers = await Promise.all(others);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    answers.forEach((a, i) => expect(a.json().vertices[3]).toBe(i + 1));
    const crashed = await crash;
    expect(crashed.statusCode).toBe(500);
    expect(crashed.json()).toMatchObject({ code: 'SPC_ERR_PLUGIN_PROCESS_EXITED' });
    expect(crashed.json().detail).toContain("the plugin process running 'crash' exited (exit code 1)");
    const after = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'triangle', kwargs: { scale: 99 } } });
    expect(after.json().vertices[3]).toBe(99);
  });

  it('a function that exhausts memory fails alone with MemoryError, and the host serves on', async () => {
    const app = await pythonApp();
    const hog = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'hog', kwargs: { gigabytes: 0.125 } } });
    expect(hog.statusCode).toBe(500);
    expect(hog.json().detail).toMatch(/MemoryError|exited/);
    expect((await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'triangle' } })).statusCode).toBe(200);
  });

  it('DELETE ends a job that never yields as cancelled, its process interrupted, and the next call answers', async () => {
    const earlier = new Set(runnerPids());
    const app = await pythonApp(1);
    const job = (await app.inject({ method: 'POST', url: '/api/specimens/py-spin/start', payload: { params: { seconds: 120 }, room_id: room() } })).json();
    await waitFor(() => (runnerPids(earlier).length > 0 ? true : undefined), 'a plugin process');
    const before = runnerPids(earlier);
    expect((await app.inject({ method: 'DELETE', url: `/api/jobs/${job.job_id}` })).statusCode).toBe(204);
    const ended = await waitForJob(app, job.job_id);
    expect(ended).toMatchObject({ status: 'error', error: 'cancelled' });
    const next = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'triangle', kwargs: { scale: 5 } } });
    expect(next.json().vertices[3]).toBe(5);
    // Interrupted, not killed: the same warm process took the next call.
    expect(runnerPids().filter((pid) => before.includes(pid)).length).toBeGreaterThan(0);
  });

  it('DELETE kills a function that swallows the interrupt, and a new process takes its place', async () => {
    const app = await pythonApp(1);
    const job = (await app.inject({ method: 'POST', url: '/api/specimens/py-stuck/start', payload: { params: { seconds: 120 }, room_id: room() } })).json();
    await waitFor(async () => ((await app.inject(`/api/jobs/${job.job_id}/progress`)).json().status === 'running' ? true : undefined), 'the job to run');
    expect((await app.inject({ method: 'DELETE', url: `/api/jobs/${job.job_id}` })).statusCode).toBe(204);
    expect(await waitForJob(app, job.job_id, 5000)).toMatchObject({ status: 'error', error: 'cancelled' });
    const next = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'triangle', kwargs: { scale: 6 } } });
    expect(next.json().vertices[3]).toBe(6);
  });
});
