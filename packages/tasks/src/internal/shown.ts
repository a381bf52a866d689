// How an error message shows a value: poisson-core's `shown`, shared by every package.
export { shown } from 'poisson-core';
