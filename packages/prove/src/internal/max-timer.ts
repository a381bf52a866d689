// The longest delay a Node timer keeps: 2^31 - 1 ms (about 24.8 days); a longer one fires after 1 ms, with
// a TimeoutOverflowWarning. Every option that goes to a timer (an episode's timeout, a queue's poll, a
// worker's lock) is refused above it. Internal.

/** 2^31 - 1 ms, the longest delay a Node timer keeps. */
export const MAX_TIMER_MS = 2_147_483_647;
