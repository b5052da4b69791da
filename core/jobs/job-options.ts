/**
 * @module job-options
 * The host options of jobs: how long a finished one stays pollable, the longest one may run,
 * and how many (queued and running, finished, progress messages each) the host keeps. Their
 * defaults and rules, beside the jobs they configure; options.ts folds them into the host's.
 */
export interface JobHostOptions {
  /** How long a finished job stays pollable, in seconds. @defaultValue 300 */
  jobTtlSeconds?: number;
  /** Longest a job may run before it is ended as an error, in seconds. @defaultValue 3600 */
  jobTimeoutSeconds?: number;
  /** Progress messages kept per job (older ones are dropped, newest kept). @defaultValue 10000 */
  maxJobMessages?: number;
  /** Finished jobs kept at most (oldest swept first). @defaultValue 10000 */
  maxFinishedJobs?: number;
  /** Queued and running jobs at most; past it `/start` answers 503 with Retry-After. @defaultValue 1000 */
  maxJobs?: number;
}

export const JOB_DEFAULTS = Object.freeze({ jobTtlSeconds: 300, jobTimeoutSeconds: 3600, maxJobMessages: 10000, maxFinishedJobs: 10000, maxJobs: 1000 });

/** The job options and their rules (options.ts checks them with the others): a number from 0, or above it. */
export const JOB_NUMBER_RULES = [
  ['jobTtlSeconds', { zero: true }],
  ['jobTimeoutSeconds', {}],
  ['maxJobMessages', {}],
  ['maxFinishedJobs', {}],
  ['maxJobs', {}],
] as const;
