// seed(salt, r) lives in poisson-core (one home for every package that derives seeds).
export { seedFor } from 'poisson-core';
