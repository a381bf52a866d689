#!/usr/bin/python3
"""Cross-check of the cluster-robust standard errors with statsmodels (Debian's python3-statsmodels).

Run from this directory after paired-scores.gen.R:  /usr/bin/python3 cluster-robust.gen.py
It reads the inputs of the "cluster" cases of paired-scores.json, fits an intercept-only OLS of the
differences (after - before) with cov_type='cluster' (groups = the cluster labels, use_t=True, so the
t distribution has G - 1 degrees of freedom) and writes cluster-robust.json (floats by repr).
It also writes the uncorrected (CR0) standard error with cov_kwds use_correction=False.
"""
import json

import numpy as np
import statsmodels
import statsmodels.api as sm

with open("paired-scores.json") as f:
    cases = json.load(f)["cluster"]

out = []
for case in cases:
    d = np.array(case["after"]) - np.array(case["before"])
    labels = {name: i for i, name in enumerate(sorted(set(case["clusters"])))}
    groups = np.array([labels[c] for c in case["clusters"]])
    X = np.ones((len(d), 1))
    fit = sm.OLS(d, X).fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=True)
    fit0 = sm.OLS(d, X).fit(cov_type="cluster", cov_kwds={"groups": groups, "use_correction": False}, use_t=True)
    lower, upper = fit.conf_int(alpha=1 - case["level"])[0]
    out.append({
        "name": case["name"],
        "mean": float(fit.params[0]),
        "se": float(fit.bse[0]),
        "se_cr0": float(fit0.bse[0]),
        "statistic": float(fit.tvalues[0]),
        "p_value": float(fit.pvalues[0]),
        "df": float(fit.df_resid_inference),
        "lower": float(lower),
        "upper": float(upper),
    })

with open("cluster-robust.json", "w") as f:
    json.dump({"source": f"statsmodels {statsmodels.__version__}: OLS(d, 1).fit(cov_type='cluster', use_t=True)", "cluster": out}, f, indent=1)
    f.write("\n")
