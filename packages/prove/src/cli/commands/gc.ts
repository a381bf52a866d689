import { defineCommand } from '../define.js';
import { json } from '../format.js';
import { Values } from '../values.js';
import { missingStore } from './runs.js';

export const gcCommand = defineCommand({
  name: 'gc',
  summary: 'Remove the run directories that never started (no run.json: a sweep killed while creating the run), the temporary files killed writers left in runs, and the staging directories of imports killed outright.',
  description: 'Each is locked first: one a live process is creating is kept. Damaged runs (a run.json that cannot be read) are never removed; poisson-prove runs names them. In the other runs, the temporary files a killed writer left (run.json.<hex>.tmp, .lock.<hex>.tmp, temporary parts) are removed under the run\'s lock; a run a live writer holds is left alone. Also removes the staging directories (.staging-XXXXXX) of imports killed outright, once their process is gone, with the names they claimed.',
  positionals: [],
  options: {
    json: { type: 'boolean', description: 'Print { removed, kept, temporaries } as one JSON document.' },
  },
  examples: ['poisson-prove gc'],
  async run({ options, store, io }) {
    const v = new Values(options);
    v.done();
    await missingStore(store);
    const { gcStore } = await import('../../store/gc.js');
    const r = await gcStore(store);
    if (v.flag('json')) io.stdout.write(json(r));
    else {
      const lines = [`ok removed ${r.removed.length} run director${r.removed.length === 1 ? 'y' : 'ies'} that never started`];
      for (const d of r.removed) lines.push(`removed ${d}`);
      for (const k of r.kept) lines.push(`kept ${k.dir}: ${k.reason}`);
      for (const t of r.temporaries) lines.push(`removed ${t} (a temporary file a killed writer left)`);
      io.stdout.write(`${lines.join('\n')}\n`);
    }
    return 0;
  },
});
