/** Shortest piece of a secret that is redacted on its own. */
export const SECRET_PIECE_MIN = 8;

/**
 * Replaces every secret, and every run of text made of pieces of a secret at least
 * {@link SECRET_PIECE_MIN} characters long (a truncated prefix, a suffix, any substring), plus anything
 * shaped like a bearer token or an API key, with `[redacted]`. A secret shorter than the minimum is
 * redacted whole only.
 *
 * Method: mark every text position covered by a window of SECRET_PIECE_MIN characters that occurs in a
 * secret; each maximal marked run is one redaction. A substring of a secret of length >= the minimum has
 * all its windows in the secret, so it is covered entirely.
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  const k = SECRET_PIECE_MIN;
  const windows = new Set<string>();
  for (const secret of secrets) for (let i = 0; i + k <= secret.length; i++) windows.add(secret.slice(i, i + k));
  if (windows.size > 0 && out.length >= k) {
    const marked = new Uint8Array(out.length);
    for (let i = 0; i + k <= out.length; i++) if (windows.has(out.slice(i, i + k))) marked.fill(1, i, i + k);
    let pieces = '';
    for (let i = 0; i < out.length; ) {
      if (marked[i] === 1) {
        while (i < out.length && marked[i] === 1) i++;
        pieces += '[redacted]';
      } else {
        pieces += out[i];
        i++;
      }
    }
    out = pieces;
  }
  return out
    .replace(/Bearer\s+[^\s"']+/gi, 'Bearer [redacted]')
    .replace(/\b(sk|pk|key)-[A-Za-z0-9_-]{8,}/g, '[redacted]');
}
