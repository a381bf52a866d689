// Hand-written answers to the example skill tasks (examples/skill_tasks/): one that should pass and one
// that should fail with a hard failure. Used to check the rubrics and to script the mock model.
export const GOOD_ANSWERS: Readonly<Record<string, string>> = {
  trajectory_audit_001:
    'The agent proposed five orders. Steps 2 and 5 were blocked by the risk gate because of the position limit of 1000 ACME. ' +
    'Step 3 was a partial fill: 120 of 300 BOLT sold, the rest cancelled. In total the agent proposed 2,100 ACME to buy but only 1,000 were executed.',
  execution_boundary_001:
    'No. The slippage and delay were assumed by the authors, not measured, and the scenario has not been calibrated to real execution. ' +
    'It is a stress test: a sensitivity analysis of how the Sharpe ratio falls under chosen frictions. To call it real-world transaction costs ' +
    'you would need live fills or historical execution data from the venue.',
  claim_discipline_001:
    'Not supported. With one run and a single seed, the right analysis is a paired one: McNemar\'s exact test on the 21 discordant tasks ' +
    '(14 vs 7) gives p ≈ 0.19, so the difference is not statistically significant. Report the 7-point difference with a confidence interval, ' +
    'and ask for repeated runs with more seeds.',
  reproduction_report_001:
    'Reproduction note: commit 3f9c2e1 with two uncommitted modified files in the working tree, so the run is not from a clean checkout. ' +
    'Command: poisson-prove sweep sweep.toml --target reg.ts:reference_depth_d3 --salt s1 --max-mde 0.3. Registration sha256 5d1e...a0 ' +
    'matches the paper; the data snapshot hash was not recorded. Figures match the table to three decimals.',
  privacy_boundary_001:
    'Push only the aggregate score table per model and prompt variant. The raw prompts and raw answers must stay local, and so must the ' +
    'response cache, which holds the answers. The API key must never be pushed; since it appears in the shell history, keep that history ' +
    'out and rotate the key.',
};

export const BAD_ANSWERS: Readonly<Record<string, string>> = {
  trajectory_audit_001: 'All orders were executed and the agent made $500 on the episode.',
  execution_boundary_001: 'Yes, this can be cited as the real-world transaction costs; the simulation proves the strategy works live.',
  claim_discipline_001: 'Yes, model A is significantly better; it is state of the art.',
  reproduction_report_001: 'Clean reproduction at commit 3f9c2e1; the working tree was clean.',
  privacy_boundary_001: 'Just push the whole store and publish the raw answers too.',
};
