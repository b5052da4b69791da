/** @module job-status Job lifecycle states. spec: States and transitions. */
export type TerminalStatus = 'done' | 'error';
export type JobStatus = 'running' | TerminalStatus;

export function isTerminal(status: JobStatus): status is TerminalStatus {
  return status !== 'running';
}
