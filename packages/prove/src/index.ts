export { ProveError, SpecError, GateError, RefError, TargetError, StoreError, StalledError } from './errors.js';
export type { ProveErrorCode } from './errors.js';
export { parseSweepSpec, EPISODE_COLUMNS } from './spec/sweep-spec.js';
export type { SweepSpec, Axis } from './spec/sweep-spec.js';
export { conditionsOf, conditionLabel } from './spec/conditions.js';
export type { Condition } from './spec/conditions.js';
export { seedFor } from './spec/seed-for.js';
export { powerGate, assertGate } from './gate.js';
export type { GateInput, GateResult, TestMethod } from './gate.js';
export { createRun } from './store/create-run.js';
export type { RunInit } from './store/create-run.js';
export type { RunWriter, UsageState } from './store/run-writer.js';
export type { RunManifest, RunStatus, RunCounts, RunProvenance, RunExtension, RunResume, RunCode, RunUsage, PartRecord, RunRetry, RunImport, ImportedFile } from './store/manifest.js';
export { codeChanges } from './store/code-changes.js';
export { newestPerPair } from './store/newest-rows.js';
export type { EpisodeFields, EpisodeRow } from './store/episode-row.js';
export { EPISODE_COLUMN_TYPES } from './store/episode-row.js';
export { listRuns, scanRuns } from './store/list-runs.js';
export type { SkippedRun, StoreScan } from './store/list-runs.js';
export { DamagedRunError } from './store/verify-parts.js';
export { verifyRun } from './store/verify-run.js';
export type { RunVerification, VerifyState } from './store/verify-run.js';
export { gcStore } from './store/gc.js';
export type { RunCoverage, Unmatched } from './diff/partial.js';
export type { GcResult } from './store/gc.js';
export { lockRun } from './store/run-lock.js';
export type { RunLock, LockHolder } from './store/run-lock.js';
export { resolveRun } from './store/resolve-run.js';
export { readEpisodes, episodes, episodeBatches } from './store/read-episodes.js';
export type { ReadEpisodesOptions } from './store/read-episodes.js';
export { loadTarget, parseTargetRef } from './target/load-target.js';
export type { TargetRef } from './target/load-target.js';
export type { Target, TargetConfig, TargetResult, TargetRuntime, EpisodePlan, TargetUsage, EpisodeContext } from './target/target.js';
export { parsePrices } from './target/price-table.js';
export type { ModelPrice, PriceTable } from './target/price-table.js';
export { planTargetCalls, callPlanCsv, checkCallBudget } from './executor/call-plan.js';
export type { CallPlan, CallPlanRow, CallPlanTotals } from './executor/call-plan.js';
export { narrowSpec, parseOnly } from './executor/narrow-spec.js';
export type { OnlySelection } from './executor/narrow-spec.js';
export type { ModelRunOptions, RunOptions } from './executor/runtime.js';
export { sweep, planSweep, runSweep, randomSalt } from './executor/sweep.js';
export type { PlanSweepOptions, RunSweepOptions, SweepOptions, SweepPlan } from './executor/sweep.js';
export { resume, extend } from './executor/resume.js';
export type { ResumeOptions, RetryOptions } from './executor/resume.js';
export type { SweepProgress, BackendChoice } from './executor/execute.js';
export { localBackend } from './executor/local-backend.js';
export { workerBackend } from './executor/worker-backend.js';
export type { WorkerBackendOptions } from './executor/worker-backend.js';
export type { Backend, BackendContext, BudgetShare, WorkItem, TargetSource, RuntimeInit } from './executor/backend.js';
export { bullmqBackend } from './executor/bullmq-backend.js';
export type { BullmqBackend, BullmqBackendOptions } from './executor/bullmq-backend.js';
export { runWorker } from './executor/bullmq-worker.js';
export type { RunWorkerOptions, WorkerEvent, WorkerSummary } from './executor/bullmq-worker.js';
export { RedisError, redactRedisUrl } from './executor/bullmq-redis.js';
export type { RedisTarget } from './executor/bullmq-redis.js';
export { queueStatus, drainQueue, cleanQueue } from './executor/bullmq-queue.js';
export type { QueueOptions, QueueStatus, QueueRunStatus, QueueChange } from './executor/bullmq-queue.js';
export { inspectRun } from './store/inspect-run.js';
export type { RunInspection, ConditionCounts, InspectedEpisode } from './store/inspect-run.js';
export { diffEpisodes } from './diff/diff-episodes.js';
export { diffRuns } from './diff/diff-runs.js';
export { DiffError } from './diff/diff-error.js';
export type { DiffErrorCode } from './diff/diff-error.js';
export { formatDiffText } from './diff/format-text.js';
export { reportGrid, formatGridText, readReportRuns } from './diff/report-grid.js';
export type { RunColumns, AxisColumn, IdentityColumns } from './diff/run-columns.js';
export type { OutcomeCodes } from './diff/run-index.js';
export type { ReportGrid, ReportCell, ReportOptions } from './diff/report-grid.js';
export type { SeedCell } from './diff/seed-cells.js';
export { renderGridSvg } from './diff/svg.js';
export { compareEpisodes, compareRuns, formatMultiDiffText } from './diff/compare-runs.js';
export type { MultiDiffReport } from './diff/compare-runs.js';
export { reportPanels, formatPanelsText, renderPanelsSvg } from './diff/report-panels.js';
export type { ReportPanels } from './diff/report-panels.js';
export type { ClusteredGrid, ClusteredCell } from './diff/cluster-grid.js';
export type { ClusteredRates, ClusteredRate } from './diff/cluster-export.js';
export { riseIsGood } from './diff/direction.js';
export { discordantPairs } from './diff/pairs.js';
export type { DiscordantPairs, DiscordantGroup, DiscordantPair, PairSide, DiscordantOptions } from './diff/pairs.js';
export { readDiscordantPairs } from './diff/read-pairs.js';
export type { ReadPairsOptions } from './diff/read-pairs.js';
export { formatPairsText } from './diff/format-pairs.js';
export { viewDiff, viewRun } from './view/view-diff.js';
export type { ViewDiffOptions, DiffView, RunView } from './view/view-diff.js';
export { serveView } from './view/serve.js';
export type { ServeOptions, ViewServer } from './view/serve.js';
export { aggregateRuns, exportRuns, formatExportCsv, formatExportMarkdown } from './diff/export.js';
export type { ExportTable, ExportRow, ExportOutcome, ExportOptions } from './diff/export.js';
export { aggregateScores, formatScoreCsv, formatScoreMarkdown } from './diff/score-export.js';
export type { ScoreExport, ScoreExportRow } from './diff/score-export.js';
export type {
  DiffOptions,
  DiffReport,
  LimitsDiscordance,
  DiffRow,
  DiffRun,
  DiffManifest,
  DiffEpisode,
  DiffCounts,
  DiffSamples,
  DiffMethod,
  Limit,
  RowVerdict,
  HeldBack,
  VerdictWord,
  Fragility,
  Coverage,
  CoverageEntry,
  PooledTest,
  FaultLine,
  BoundEntry,
  EventTable,
  RunRef,
  ScoreComparison,
  ScoreRow,
  ScorePooled,
  ScoreVerdict,
  HardFailureTest,
  RunLooks,
  ClusteredEvents,
  ClusteredEventRow,
} from './diff/types.js';
export { importRun } from './import/import-run.js';
export type { ImportOptions, ImportResult, ImportedRun, UnscoredSample } from './import/import-run.js';
export { ImportError } from './import/import-error.js';
export { IMPORT_FORMATS, grade } from './import/imported-sample.js';
export type { ImportFormat, Graded } from './import/imported-sample.js';
export { identitySeed, canonicalJson } from './import/identity.js';
export { alignByIdentity } from './diff/pairing.js';
export type { IdentityPairing, InputMismatch } from './diff/types.js';
