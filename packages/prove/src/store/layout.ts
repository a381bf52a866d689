import { join } from 'node:path';

// Where things live inside a store (PROVE.md, "The store"). Internal to prove.

/** A run id: `YYYYMMDDTHHMMSSZ-xxxx` (UTC time, 4 lower-case hex digits). */
export const RUN_ID_RE = /^\d{8}T\d{6}Z-[0-9a-f]{4}$/;
/** A part file's name. */
export const PART_RE = /^part-(\d{5,})\.parquet$/;

export const runDir = (store: string, runId: string): string => join(store, runId);
export const manifestPath = (store: string, runId: string): string => join(store, runId, 'run.json');
export const specPath = (store: string, runId: string): string => join(store, runId, 'spec.toml');
export const episodesDir = (store: string, runId: string): string => join(store, runId, 'episodes');
export const partName = (index: number): string => `part-${String(index).padStart(5, '0')}.parquet`;
/** The run's writer lock (run-lock.ts). */
export const lockPath = (store: string, runId: string): string => join(store, runId, '.lock');
export const claimsDir = (store: string): string => join(store, '.claims');
