// The target contract lives in poisson-core (one home for every package that speaks it).
export type { Target, TargetConfig, TargetResult, TargetRuntime, EpisodePlan, TargetUsage } from 'poisson-core';
