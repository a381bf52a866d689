// One home for the hash: poisson-core's sha256Hex (node's one-shot crypto.hash where it exists).
export { sha256Hex } from 'poisson-core';
