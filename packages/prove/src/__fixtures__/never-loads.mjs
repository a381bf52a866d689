// A target module whose top-level await never settles (the CLI's end-to-end tests).
await new Promise(() => {});
export const x = () => ({ outcome: 'passed', t: 1 });
