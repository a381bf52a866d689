// Run by environment.test.ts in a child process under `node --trace-gc-nvp --import tsx`: plays N
// depth-3 episodes (argv[2], default 20,000) through createEnvironment with the reference actions,
// keeping nothing, between two markers on stdout. The test sums what V8's scavenges promoted to the old
// generation between the markers (the `promoted=` field of each `gc=s` line): what finished episodes
// left alive past a scavenge.
import { createEnvironment } from '../environment.js';
import { generate } from '../generate.js';
import { D3 } from './arms.js';

const n = Number(process.argv[2] ?? 20_000);
let passed = 0;
console.log('episodes start');
for (let seed = 0; seed < n; seed++) {
  const task = generate(D3, seed);
  const env = createEnvironment(task, { maxTurns: task.solution.length + 1 });
  for (const call of task.solution) env.step({ kind: 'call', name: call.name, arguments: call.arguments });
  if (env.step({ kind: 'answer', text: task.answer }).outcome === 'passed') passed++;
}
console.log('episodes end');
console.log(JSON.stringify({ n, passed }));
