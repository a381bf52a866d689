// Writes dist/o200k-ranks.bin: the o200k_base ranks as the sorted byte table countTokens searches
// (src/internal/o200k-ranks.ts), so that a process loads them with one read instead of compiling
// gpt-tokenizer's rank array and building its Map. Run by `npm run build` after tsc; skips a current file.
// Without the file, countTokens builds the same table in memory from gpt-tokenizer (slower, same counts).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  buildRankTable,
  parseRankTable,
  RANK_TABLE_FILE,
  serializeRankTable,
  tokenizerVersion,
} from '../dist/internal/o200k-ranks.js';

const file = fileURLToPath(RANK_TABLE_FILE);
let current = false;
try {
  current = parseRankTable(readFileSync(file))?.source === tokenizerVersion();
} catch {
  current = false;
}
if (!current) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, serializeRankTable(buildRankTable()));
  renameSync(tmp, file);
}
