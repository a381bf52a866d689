/**
 * The examples of docs/tasks.md, each a section that prints what the page shows (docs-run runs them):
 *
 *     npx tsx examples/tasks_tour/run.ts SECTION     (episode | arms | task-message | arm-card |
 *                                                     registration | registration-error | pin-error)
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  armCard,
  armCardMarkdown,
  generate,
  maxTurns,
  parseArmId,
  parseRegistration,
  referencePolicy,
  registrationText,
  runEpisode,
  validatePreregistration,
  type ArmSpec,
} from 'poisson-tasks';
import { loadRegistry } from 'poisson-tasks/adapter';

const ctx = { strictness: 'strict', split: 'eval', generatorVersion: '0' } as const;
const SEED_ARMS = ['depth:d1', 'depth:d3', 'depth:d1+h3'];

const sections: Record<string, () => Promise<void> | void> = {
  async episode() {
    const arm: ArmSpec = { knob: 'depth', level: 3, controlHistory: null, ...ctx };
    const task = generate(arm, 0);
    const r = await runEpisode(task, referencePolicy, { maxTurns: maxTurns(arm, 4) });
    console.log(`outcome ${r.outcome}, t ${r.t}, calls ${r.calls.length}`);
  },
  arms() {
    console.log(JSON.stringify(parseArmId('depth:d1+h3', ctx)));
    console.log(`maxTurns(depth:d3, slack 4) = ${maxTurns(parseArmId('depth:d3', ctx), 4)}`);
  },
  'task-message'() {
    const task = generate(parseArmId('depth:d3', ctx), 0);
    console.log(task.messages[task.messages.length - 1]!.content);
  },
  'arm-card'() {
    console.log(armCardMarkdown(armCard(parseArmId('depth:d1+h3', ctx), { slack: 4 })));
  },
  registration() {
    const text = registrationText({ knob: 'depth', ...ctx, slack: 4, arms: SEED_ARMS });
    process.stdout.write(text);
    console.log(`# sha256 ${createHash('sha256').update(text).digest('hex')}`);
  },
  'registration-error'() {
    // The seed's registration without the control depth:d1+h3, and a horizon of 7.
    const text = registrationText({ knob: 'depth', ...ctx, slack: 4, arms: SEED_ARMS })
      .replace(', "depth:d1+h3"]', ']')
      .replace('horizon = 8', 'horizon = 7');
    try {
      validatePreregistration(parseRegistration(text));
    } catch (e) {
      console.log((e as Error).message);
    }
  },
  async 'pin-error'() {
    const text = registrationText({ knob: 'depth', ...ctx, slack: 4, arms: SEED_ARMS });
    const path = join(mkdtempSync(join(tmpdir(), 'tasks-tour-')), 'registration.toml');
    writeFileSync(path, text);
    const registry = loadRegistry(path, { sha256: createHash('sha256').update(text).digest('hex') });
    try {
      await registry.targets.reference_depth_d3!({ seed: 1, replicate_index: 0 }); // a sweep with no axes
    } catch (e) {
      console.log((e as Error).message);
    }
  },
};

const name = process.argv[2] ?? '';
const section = sections[name];
if (!section) {
  console.error(`usage: npx tsx examples/tasks_tour/run.ts SECTION, one of: ${Object.keys(sections).join(', ')}`);
  process.exit(2);
}
await section();
