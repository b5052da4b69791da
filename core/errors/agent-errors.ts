/**
 * @module agent-errors
 * The error catalog's entries of the headset's agent (its socket, the headsets' tools), folded
 * into errors.ts's one catalog (each `{status, message}` as its `entry()` makes them) and listed
 * with the others in core/ERRORS.md.
 */
export const AGENT_ERRORS = {
  SPC_ERR_AGENT_NOT_WEBSOCKET: { status: 426, message: () => 'the agent socket is a WebSocket: connect with Upgrade: websocket' },
  SPC_ERR_AGENT_NO_HEADSET: { status: 409, message: (room = '?') => `no headset is connected to the agent socket of room '${room}' to run the call` },
  SPC_ERR_AGENT_NO_WRITER: {
    status: 409,
    message: (room = '?') => `no socket of room '${room}' belongs to someone who may write it, so none may run the call`,
  },
  SPC_ERR_HEADSET_GONE: { status: 502, message: (tool = '?', client = '?') => `executing client ${client} disconnected before replying to ${tool}` },
  SPC_ERR_HEADSET_REFUSED: { status: 502, message: (tool = '?', why = '?') => `the headset could not run ${tool}: ${why}` },
  SPC_ERR_HEADSET_TIMEOUT: { status: 504, message: (tool = '?', seconds = '?') => `the headset running ${tool} did not answer within ${seconds} s` },
};
