// Where a thread imports the parquet libraries from: the build's one-file bundle of them
// (dist/vendor/parquet-libs.js, what `#parquet-libs` names outside the poisson-source condition; one module
// where hyparquet's are ~20 and hyparquet-writer's with them ~50), or, run from source (the tests),
// where `#parquet-libs` is TypeScript a thread cannot import, the packages' own modules. Internal.

/** The URL of the build's one-file bundle of the parquet libraries, or null when running from source. */
export function bundledParquetLibs(): string | null {
  const url = import.meta.resolve('#parquet-libs');
  return url.endsWith('.js') ? url : null;
}
