/**
 * A changed usage is written to the manifest at most this often (ms), besides with every part
 * (`RunWriter.recordUsage`): 250 ms (2 s until the third session of 2026-12-07: a review's sweep of fast
 * model calls, SIGKILLed 0.4 s in, had recorded 1,849 of the 56,046 tokens it billed). A write is a
 * rename of a small file, a few a second. Its own module so that the CLI's text can name it without
 * loading the writer.
 */
export const USAGE_WRITE_MS = 250;
