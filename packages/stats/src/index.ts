export { mcnemar, MCNEMAR_METHODS } from './mcnemar.js';
export type { McnemarMethod, McnemarOptions, McnemarResult } from './mcnemar.js';
export type { PairedCounts } from './paired-counts.js';
export { tangoInterval } from './tango-interval.js';
export type { TangoInterval, TangoOptions } from './tango-interval.js';
export { holm } from './holm.js';
export { benjaminiHochberg } from './benjamini-hochberg.js';
export { bonferroni } from './bonferroni.js';
export { criticalDiscordant } from './critical-discordant.js';
export type { CriticalDiscordantOptions } from './critical-discordant.js';
export { mcnemarPower } from './mcnemar-power.js';
export type { McnemarPowerOptions } from './mcnemar-power.js';
export { discordanceSlope, minimumDetectableChange } from './minimum-detectable-change.js';
export { roundSignificant } from './round-significant.js';
export type { MinimumDetectableChangeOptions } from './minimum-detectable-change.js';
export { fisherExact } from './fisher-exact.js';
export { fisherMinimumDetectableChange, fisherPower } from './fisher-power.js';
export type { FisherMdeOptions, FisherPowerOptions } from './fisher-power.js';
export { POWER_TRUNCATION } from './internal/discordant-power.js';
export type { FisherResult, FisherTable } from './fisher-exact.js';
export { newcombeInterval } from './newcombe-interval.js';
export type { NewcombeInterval, NewcombeOptions } from './newcombe-interval.js';
export { wilsonInterval } from './wilson-interval.js';
export type { WilsonInterval, WilsonOptions } from './wilson-interval.js';
export { unpairedMinimumDetectableChange, unpairedPower } from './unpaired-power.js';
export type { UnpairedMdeOptions, UnpairedPowerOptions } from './unpaired-power.js';
export { meanScoreInterval, pairedScoreDifference } from './paired-scores.js';
export type { MeanScoreResult, PairedScoreResult, ScoreInterval } from './paired-scores.js';
export { bellMcCaffreyDf, clusterRobustMean, clusterRobustMeanDifference } from './cluster-robust.js';
export type { ClusterRobustOptions, ClusterRobustResult, ClusterRobustType } from './cluster-robust.js';
export {
  betaMixtureLogE,
  sequentialCriticalCounts,
  sequentialMcnemar,
  sequentialMinimumDetectableChange,
  sequentialPower,
  SEQUENTIAL_MCNEMAR_METHOD,
} from './sequential-mcnemar.js';
export type { SequentialMcnemarResult, SequentialPowerOptions } from './sequential-mcnemar.js';
export {
  CONFIDENCE_SEQUENCE_METHOD,
  clusteredChangeConfidenceSequence,
  meanConfidenceSequence,
  pairedChangeConfidenceSequence,
} from './confidence-sequence.js';
export type { ClusteredSequenceOptions, ClusterTable, ConfidenceSequence, ConfidenceSequenceOptions } from './confidence-sequence.js';
export { clusteredMcnemar } from './clustered-mcnemar.js';
export type { ClusteredMcnemarMethod, ClusteredMcnemarOptions, ClusteredMcnemarResult } from './clustered-mcnemar.js';
