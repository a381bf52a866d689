// The data that decides a relay task: word list, stage names, templates and parameters. Everything here
// goes into the generator hash (see ../generator-hash.ts): change a word or a template and the hash changes.
import { deepFreeze } from './deep-freeze.js';

/** The opaque tokens a stage maps between (48, lower-case, made-up). */
export const WORDS: readonly string[] = Object.freeze([
  'vorn', 'tesk', 'marn', 'pilo', 'quen', 'zaff', 'lume', 'gorp',
  'hent', 'jiva', 'kelt', 'nopa', 'sarn', 'tivo', 'wemb', 'yarl',
  'drom', 'fesh', 'glim', 'brul', 'crev', 'daxo', 'fenu', 'gask',
  'holt', 'ibra', 'joss', 'kavo', 'lisk', 'mupe', 'nefo', 'orla',
  'pesk', 'quor', 'rilt', 'suma', 'tovy', 'ulve', 'vask', 'wilo',
  'xend', 'yorv', 'zule', 'brap', 'clom', 'dreb', 'frin', 'gowl',
]);

/** The stage names, in declaration order; the tools are `stage_<name>`. */
export const STAGE_NAMES: readonly string[] = Object.freeze([
  'amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'harbor',
]);

/** The splits, and which start tokens each may draw: word index modulo 3 (disjoint by construction). */
export const SPLIT_RESIDUES: Readonly<Record<'train' | 'dev' | 'eval', number>> = Object.freeze({
  train: 0,
  dev: 1,
  eval: 2,
});

/** How many slots the "other open stages" line always has (the width knob's length budget). */
export const OTHER_SLOTS = 3;

/** The word that fills an unused slot of the "other open stages" line. */
export const EMPTY_SLOT = '(vacant)';

/** The one prompt template: the system message, then the task message's lines. */
export const TEMPLATES = deepFreeze({
  system:
    'You operate a relay of stages. Each stage is a tool: give it a token and it returns the token that ' +
    'stage maps it to. The mappings are hidden, so call the tools to learn them. When you know the final ' +
    'token, reply with that token alone, without calling a tool.',
  task: [
    'Start token: {start}',
    'Route: {route}',
    'Other open stages: {others}',
    'Pass the start token through the stages of the route in order, one tool call per stage, feeding ' +
      'each output to the next stage. Reply with the token the last stage returns.',
  ],
  routeSeparator: ' -> ',
  othersSeparator: ', ',
  /** The id of the i-th (1-based) history tool call of a control arm's prompt. */
  historyCallId: 'history_{i}',
  invalidCall: 'error: {reason}',
});

/**
 * Every stage's tool definition, as data: `{stage}` is replaced by the stage name in every string. The
 * whole skeleton (the `type`s, `required`, `additionalProperties`) is here, so it is hashed; tools.ts only
 * fills it in.
 */
export const TOOL_TEMPLATE = deepFreeze({
  type: 'function',
  function: {
    name: 'stage_{stage}',
    description: 'Stage {stage} of the relay: give it a token and it returns the token that stage {stage} maps it to.',
    parameters: {
      type: 'object',
      properties: { token: { type: 'string', description: 'The token to pass through stage {stage}.' } },
      required: ['token'],
      additionalProperties: false,
    },
  },
} as const);

/**
 * The prompt's message structure, as data: `prompt` lists the parts in order, `history` expands to one
 * `historyStep` per history call, and each named part is a message template whose `{placeholders}` are
 * filled in (`system`: the system prompt; `callId`, `tool`, `token` (JSON-escaped) and `output`: a
 * history call and its result; `task`: the rendered task message). generate.ts reads only this.
 */
export const MESSAGE_LAYOUT = deepFreeze({
  prompt: ['system', 'history', 'task'],
  historyStep: ['historyCall', 'historyResult'],
  messages: {
    system: { role: 'system', content: '{system}' },
    historyCall: {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: '{callId}', type: 'function', function: { name: '{tool}', arguments: '{"token":"{token}"}' } }],
    },
    historyResult: { role: 'tool', tool_call_id: '{callId}', content: '{output}' },
    task: { role: 'user', content: '{task}' },
  },
} as const);

/** The algorithm's parameters, named so the hash records them. */
export const ALGORITHM = deepFreeze({
  family: 'relay',
  rng: 'seedrandom.alea',
  scenarioKey: 'relay/{version}/{split}/{seed}',
  drawOrder: 'route, then the stage mappings, then the start token; all from one Alea stream',
  route: 'Fisher-Yates shuffle of STAGE_NAMES; a task of depth d plays its first d stages',
  stageMapping: "Sattolo's algorithm over WORDS, one cycle per stage, stages drawn in STAGE_NAMES order",
  startToken:
    'uniform over the eligible words: index % 3 equals the split residue, and the chain from the word through ' +
    'the first distinctChainStages route stages visits distinctChainStages + 1 distinct tokens; when no word ' +
    'is eligible, route and mappings are drawn again from the same stream',
  /** The chain from the start through this many route stages never revisits a token (>= the deepest level). */
  distinctChainStages: 8,
  distractors: 'the route stages after the played ones, in route order',
  history: 'a control plays the last d stages of its partner route; the earlier calls are given as history',
  scenarioId: 'first 16 hex of sha256 of version | split | start | route | each stage cycle as char codes',
  taskId: 'first 16 hex of sha256 of generator hash | scenario id | arm id | strictness',
});
