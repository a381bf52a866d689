// Test helper: a CliIo that records what a command prints, for runCli in process.

/** Records stdout and stderr; `until(re)` resolves when stdout has printed text matching `re`. */
export function capture(cwd: string, signal?: AbortSignal) {
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  return {
    io: {
      stdout: { write: (s: string) => ((out += s), waiters.splice(0).forEach((w) => w()), true) },
      stderr: { write: (s: string) => ((err += s), true) },
      isTTY: false,
      env: {},
      cwd,
      ...(signal ? { signal } : {}),
    },
    out: () => out,
    err: () => err,
    until: (re: RegExp) =>
      new Promise<RegExpMatchArray>((resolve) => {
        const check = (): void => {
          const m = out.match(re);
          if (m) resolve(m);
          else waiters.push(check);
        };
        check();
      }),
  };
}

/**
 * {@link capture} run from `store` with $POISSON_STORE set to it: the store a bare command would read, so
 * the `next:` lines name no `--store` (as the scripted path's, run beside ./store, do).
 */
export function captureStore(store: string, signal?: AbortSignal) {
  const c = capture(store, signal);
  (c.io.env as Record<string, string>)['POISSON_STORE'] = store;
  return c;
}
