// The seed formula and the condition label are poisson-core's (one home, shared with poisson-prove).
export { seedFor as episodeSeed, conditionLabel } from 'poisson-core';
