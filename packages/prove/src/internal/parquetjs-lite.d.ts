// Minimal types for parquetjs-lite 0.8.7 (it ships none): only what store/parquet.ts uses.
declare module 'parquetjs-lite' {
  type FieldDef = { type: string; optional?: boolean; compression?: string; encoding?: string };
  export class ParquetSchema {
    constructor(fields: Record<string, FieldDef>);
  }
  export class ParquetWriter {
    static openFile(schema: ParquetSchema, path: string, opts?: Record<string, unknown>): Promise<ParquetWriter>;
    appendRow(row: Record<string, unknown>): Promise<void>;
    close(): Promise<void>;
    setMetadata(key: string, value: string): void;
  }
  export interface ParquetCursor {
    next(): Promise<Record<string, unknown> | null>;
  }
  export class ParquetReader {
    static openFile(path: string): Promise<ParquetReader>;
    getCursor(columns?: string[]): ParquetCursor;
    getRowCount(): number | bigint;
    close(): Promise<void>;
  }
  const parquet: { ParquetSchema: typeof ParquetSchema; ParquetWriter: typeof ParquetWriter; ParquetReader: typeof ParquetReader };
  export default parquet;
}
