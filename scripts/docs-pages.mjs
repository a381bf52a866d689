// The pages `node scripts/docs-run.mjs` runs (see there). A page's optional `setup({ dir, root })` starts
// what its commands need and returns `{ env, stop }`: `env` is added to every command's environment and
// `stop()` runs when the page is done.
export const PAGES = {
  'diff.md': { path: 'docs/diff.md' },
};
