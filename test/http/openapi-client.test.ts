/**
 * A client generated from `/openapi.json` works: openapi-typescript turns the live document
 * into types, TypeScript accepts a correct `/invoke` call through openapi-fetch and rejects a
 * call naming an unknown function, and the same call succeeds over real HTTP.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/create-test-app.ts';

const FETCH_TYPES = path.resolve('node_modules/openapi-fetch/dist/index.d.mts');

function callSource(functionName: string): string {
  return [
    "import createClient from 'openapi-fetch';",
    "import type { paths } from './api.ts';",
    "const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:1' });",
    `export const call = () => client.POST('/api/processing/invoke', { body: { function_name: '${functionName}', kwargs: { size: 2 } } });`,
  ].join('\n');
}

/** TypeScript's diagnostics for `file` against the generated types. */
function diagnostics(dir: string, file: string): string[] {
  const program = ts.createProgram([path.join(dir, file)], {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true, skipLibCheck: true,
    types: [], lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], paths: { 'openapi-fetch': [FETCH_TYPES] },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('a client generated from the OpenAPI document', () => {
  it('is typed by the registry and calls /invoke over HTTP', async () => {
    const app = await createTestApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const doc = await (await fetch(`${baseUrl}/openapi.json`)).json();

    const dir = await mkdtemp(path.join(tmpdir(), 'vitrine-openapi-client-'));
    await writeFile(path.join(dir, 'api.ts'), astToString(await openapiTS(doc)));
    await writeFile(path.join(dir, 'good.ts'), callSource('square'));
    await writeFile(path.join(dir, 'bad.ts'), callSource('no_such_function'));
    expect(diagnostics(dir, 'good.ts')).toEqual([]);
    expect(diagnostics(dir, 'bad.ts').join('\n')).toMatch(/no_such_function/);

    // At run time the generated types are gone; the call is the one good.ts type-checked.
    const client = createClient<Record<string, never>>({ baseUrl });
    const invoke = client.POST as unknown as (
      url: string,
      init: { body: unknown },
    ) => Promise<{ data?: { type: string; vertices: number[] }; response: Response }>;
    const { data, response } = await invoke('/api/processing/invoke', { body: { function_name: 'square', kwargs: { size: 2 } } });
    expect(response.status).toBe(200);
    expect(data?.type).toBe('mesh');
    expect(Math.max(...(data?.vertices ?? []))).toBe(2);
  });
});
