// The data that decides a relay task: word list, stage names, templates and parameters. Everything here
// goes into the generator hash (see ../generator-hash.ts): change a word or a template and the hash changes.

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
export const TEMPLATES = Object.freeze({
  system:
    'You operate a relay of stages. Each stage is a tool: give it a token and it returns the token that ' +
    'stage maps it to. The mappings are hidden, so call the tools to learn them. When you know the final ' +
    'token, reply with that token alone, without calling a tool.',
  task: Object.freeze([
    'Start token: {start}',
    'Route: {route}',
    'Other open stages: {others}',
    'Pass the start token through the stages of the route in order, one tool call per stage, feeding ' +
      'each output to the next stage. Reply with the token the last stage returns.',
  ]),
  routeSeparator: ' -> ',
  othersSeparator: ', ',
  toolName: 'stage_{stage}',
  toolDescription:
    'Stage {stage} of the relay: give it a token and it returns the token that stage {stage} maps it to.',
  tokenDescription: 'The token to pass through stage {stage}.',
  invalidCall: 'error: {reason}',
});

/** The algorithm's parameters, named so the hash records them. */
export const ALGORITHM = Object.freeze({
  family: 'relay',
  rng: 'seedrandom.alea',
  scenarioKey: 'relay/{version}/{split}/{seed}',
  startToken: 'uniform over WORDS whose index % 3 equals the split residue',
  route: 'Fisher-Yates shuffle of STAGE_NAMES; a task of depth d plays its first d stages',
  stageMapping: "Sattolo's algorithm over WORDS, one cycle per stage, stages drawn in STAGE_NAMES order",
  distractors: 'the route stages after the played ones, in route order',
  history: 'a control plays the last d stages of its partner route; the earlier calls are given as history',
  messageOrder: 'system, history (assistant tool call, tool result)*, user task',
  scenarioId: 'first 16 hex of sha256 of the scenario canonical form',
  taskId: 'first 16 hex of sha256 of generator hash | scenario id | arm id | strictness',
});
