/**
 * @module readable-specimen
 * A specimen named by id below a route (an agent's tool, a room's entry, a layer's source),
 * looked up as the person the work is done for may see it: one published on another host of a
 * service is found (the published list is read again first), and one published for a room that
 * person may not read is not found, the same 404 an HTTP request for it gets. Every door that
 * resolves a specimen by id from what a person wrote comes here, so the check is made in one
 * place and no tool or route has to remember it.
 */
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import { checkSpecimenUse } from '../people/specimen-access.ts';
import type { SpecimenCatalog } from './specimen-catalog.ts';
import { specimenOr404 } from './specimen-functions.ts';

/** What the lookup reads: the catalog, and the published specimens it lists. */
export interface SpecimenLookupDeps {
  catalog: Pick<SpecimenCatalog, 'get'>;
  published: { refresh(): Promise<unknown> };
}

/**
 * The specimen `id` as the current work's person may read it.
 * @throws SPC_ERR_SPECIMEN_NOT_FOUND when there is none, or it is a room's that person may not read.
 */
export async function readableSpecimen(deps: SpecimenLookupDeps, id: string): Promise<SpecimenRecord> {
  await deps.published.refresh();
  const record = specimenOr404(deps.catalog, id);
  await checkSpecimenUse(record);
  return record;
}
