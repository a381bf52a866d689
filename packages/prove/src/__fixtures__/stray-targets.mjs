// Targets that throw outside their episode (the CLI's end-to-end tests): from a timer, or a promise
// left unhandled. Only condition slack 4, replicate 2 does it, so a resume completes the run.
const once = (cfg) => cfg.slack === 4 && cfg.replicate_index === 2;

export function timerThrow(cfg) {
  if (once(cfg)) setTimeout(() => {
    throw new Error('late boom');
  }, 0);
  return new Promise((resolve) => setTimeout(() => resolve({ outcome: 'passed', t: 1 }), 5));
}

export function unhandled(cfg) {
  if (once(cfg)) Promise.reject(new Error('unhandled boom'));
  return new Promise((resolve) => setTimeout(() => resolve({ outcome: 'passed', t: 1 }), 5));
}

/** Calls process.exit(0) in its episode (slack 4, replicate 2), as a script's fatal-error path does. */
export function exits(cfg) {
  if (once(cfg)) process.exit(0);
  return { outcome: 'passed', t: 1 };
}

/** Calls process.exit(0) from a timer after its episode (slack 4, replicate 2). */
export function exitsLater(cfg) {
  if (once(cfg)) setTimeout(() => process.exit(0), 0);
  return new Promise((resolve) => setTimeout(() => resolve({ outcome: 'passed', t: 1 }), 5));
}

/** Never settles in one episode (slack 4, replicate 2), where nothing is left to settle it; the others pass. */
export function hangs(cfg) {
  if (once(cfg)) return new Promise(() => {});
  return { outcome: 'passed', t: 1 };
}
