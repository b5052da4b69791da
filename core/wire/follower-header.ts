/**
 * @module follower-header
 * The request header a client sets when it reads what a room already shows because a peer put
 * it there (a page following the room catching up on a `result` event), rather than asking the
 * room for something. A room shows the latest thing asked of it, and a hit of its entry while
 * another value computes is an ask (a person sliding back to what everyone sees); a follower's
 * echo of that entry must not be one, or a peer's newer value, asked just before the echo
 * arrived, would never become the room's.
 */
export const FOLLOWER_HEADER = 'vitrine-follower';
