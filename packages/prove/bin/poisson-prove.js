#!/usr/bin/env node
// The poisson-prove command. A committed file, so that `npm ci` links it before the first build;
// the CLI itself is the built dist/cli/main.js (run `npm run build` first).
import "../dist/cli/main.js";
