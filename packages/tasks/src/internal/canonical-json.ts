// Canonical JSON lives in poisson-core (one home: the generator hash and the model cache keys agree).
export { canonicalJson } from 'poisson-core';
