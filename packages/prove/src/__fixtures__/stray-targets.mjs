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
