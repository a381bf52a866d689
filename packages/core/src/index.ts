// poisson-core: the contracts every Poisson package speaks. It imports nothing of ours.
export type { Target, TargetConfig, TargetResult, TargetRuntime, EpisodePlan, TargetUsage, EpisodeContext } from './target.js';
export { seedFor } from './seed-for.js';
export { sha256Hex } from './sha256-hex.js';
export { conditionLabel } from './condition-label.js';
export { canonicalJson } from './canonical-json.js';
export { readPriceTable } from './price-table.js';
export type { ModelPrice, PriceTable, PriceTableReading } from './price-table.js';
export { shown } from './shown.js';
export { tomlSyntaxProblem } from './toml-syntax-problem.js';
export { requireArgument } from './require-argument.js';
export type { ArgumentKind } from './require-argument.js';
