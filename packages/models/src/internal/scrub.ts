/** Replaces every secret and anything shaped like a bearer token or API key with `[redacted]`. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out
    .replace(/Bearer\s+[^\s"']+/gi, 'Bearer [redacted]')
    .replace(/\b(sk|pk|key)-[A-Za-z0-9_-]{8,}/g, '[redacted]');
}
