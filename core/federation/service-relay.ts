/**
 * @module service-relay
 * What a Redis service offers the relay among its hosts (`--relay --redis URL`): it runs the
 * relayed functions that any host of the service queues, and makes each worker's
 * registration, and its departure, known to every host. The relay hub calls it; the scale
 * folder implements it, so federation does not depend on Redis.
 */
import type { Invoker } from '../invoke/invoker.ts';
import type { WireFunction, WireSpecimen } from './wire-messages.ts';

/** What a worker registered, as it travels to the other hosts. */
export interface WorkerRegistration {
  specimens: WireSpecimen[];
  functions: WireFunction[];
}

export interface ServiceRelay {
  /** Starts taking the service's relayed computations, run through `invoker`. */
  serve(invoker: Invoker): Promise<void>;
  /**
   * This host listens at `baseUrl`: the other hosts fetch relayed specimens' thumbnails and
   * static data from it (only this host can reach the workers).
   */
  listening(baseUrl: string): Promise<void>;
  /** A worker registered (again): every host of the service lists what it registered. */
  registered(workerId: string, registration: WorkerRegistration): Promise<void>;
  /**
   * A worker left: its running computations end as errors with `reason`, and its specimens,
   * functions and room entries leave every host.
   */
  departed(workerId: string, reason: string): Promise<void>;
}
