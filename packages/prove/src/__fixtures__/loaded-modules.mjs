// Test helper, loaded with `node --import`: at exit, writes to the file named by LOADED_MODULES_OUT the
// file of every module the process loaded (ES modules through a resolve hook, CommonJS modules from
// the require cache), one per line, and each Node built-in the process loaded after this helper's own
// (from process.moduleLoadList) as `node:NAME`. module-graph.test.ts reads it to see what a command loads.
import { writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { fileURLToPath } from 'node:url';

const seen = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => seen.add(url));
port1.unref();
const hooks = `let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  port.postMessage(r.url);
  return r;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { port: port2 }, transferList: [port2] });
// The built-ins loaded so far (this helper's own: the hooks' thread loads worker_threads) are not the
// command's. MessageChannel is the global: importing node:worker_threads above would hide it anyway.
const builtinsBefore = new Set(process.moduleLoadList);

process.on('exit', () => {
  const files = new Set();
  for (const url of seen) if (url.startsWith('file:')) files.add(fileURLToPath(url));
  for (const file of Object.keys(createRequire(import.meta.url).cache)) files.add(file);
  for (const m of process.moduleLoadList) {
    const name = /^NativeModule ([^/]\S*)$/.exec(m)?.[1];
    if (name !== undefined && !name.startsWith('internal/') && !builtinsBefore.has(m)) files.add(`node:${name}`);
  }
  const out = process.env['LOADED_MODULES_OUT'];
  if (out) writeFileSync(out, [...files].sort().join('\n') + '\n');
});
