/** @module job-status Job lifecycle states: `running`, then `done` or `error` for good. */
export type TerminalStatus = 'done' | 'error';
export type JobStatus = 'running' | TerminalStatus;

export function isTerminal(status: JobStatus): status is TerminalStatus {
  return status !== 'running';
}
