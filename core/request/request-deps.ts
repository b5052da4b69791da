/**
 * @module request-deps
 * What resolving a request reads from its host: the catalog and functions, the parts the
 * inputs check reads (inputs/input-deps.ts), and the few options that shape a request (the
 * longest `params` text, the default room, the client profiles). A host context has all of
 * them; a test or a tool can hand over just these.
 */
import type { ClientProfileSettings } from '../delivery/client-profile.ts';
import type { InputDeps } from '../inputs/input-deps.ts';
import type { ResolvedHostOptions } from '../options.ts';

export interface RequestDeps extends InputDeps {
  options: Pick<ResolvedHostOptions, 'maxParamsLength' | 'defaultRoomId'> & ClientProfileSettings;
}
