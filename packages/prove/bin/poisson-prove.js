#!/usr/bin/env node
// The poisson-prove command. A committed file, so that `npm ci` links it before the first build;
// the CLI itself is the build's bundle of dist/cli/main.js, dist/bundle/main.js (run `npm run build` first).
import "../dist/bundle/main.js";
