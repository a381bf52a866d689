// The parquet libraries the store's parquet module uses (hyparquet to read, hyparquet-writer to write),
// re-exported in one module so that the build can bundle them into one file: hyparquet-writer and the
// hyparquet modules it imports are 51 files, about 30 ms of every CLI process's start-up to load one by
// one. src/store/parquet.ts imports them as `#parquet-libs` (package.json "imports"): this file when run
// from source, dist/vendor/parquet-libs.js (written by scripts/bundle-dist.mjs after tsc) from
// the build.
export { parquetMetadata, parquetMetadataAsync, parquetRead, parquetReadObjects } from 'hyparquet';
// hyparquet's page-level functions, for the flat decoder of the store's own parts (./flat-columns.ts).
export { parquetHeader } from 'hyparquet/src/column.js';
export { readRleBitPackedHybrid } from 'hyparquet/src/encoding.js';
export { readPlain } from 'hyparquet/src/plain.js';
export { parquetWriteBuffer } from 'hyparquet-writer';
// hysnappy's WebAssembly snappy decoder, for the flat decoder's pages (faster than hyparquet's own).
export { snappyUncompressor } from 'hysnappy';
