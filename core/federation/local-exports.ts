/**
 * @module local-exports
 * What a worker registers with its relay: its local specimens (with the effective schema of
 * each dynamic one, so the relay shows exactly what the worker shows) and its functions.
 */
import type { HostContext } from '../host-context.ts';
import { specimenSchema, specimenType } from '../registry/specimen-functions.ts';
import type { WireFunction, WireSpecimen } from './wire-messages.ts';

export function localSpecimens(ctx: HostContext): WireSpecimen[] {
  return ctx.catalog
    .list()
    .filter((r) => r.origin !== 'relay')
    .map((r) => ({
      id: r.id,
      display_name: r.display_name,
      description: r.description,
      type: specimenType(ctx.functions, r),
      tags: r.tags,
      is_dynamic: r.is_dynamic,
      function_name: r.function_name,
      thumbnail_file: r.thumbnail_file,
      story: r.story,
      schema: r.is_dynamic ? specimenSchema(ctx.functions, r) : null,
      has_data: !r.is_dynamic && r.data !== undefined,
    }));
}

export function localFunctions(ctx: HostContext): WireFunction[] {
  return ctx.functions
    .list()
    .filter((f) => f.source.kind !== 'remote')
    .map((f) => ({ name: f.name, return_type: f.return_type, schema: f.schema, parameters: f.parameters, async: f.async, plugin: f.plugin }));
}
