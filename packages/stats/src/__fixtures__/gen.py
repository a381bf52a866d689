#!/usr/bin/python3
"""Reference values for poisson-stats from statsmodels (Debian's python3-statsmodels).

Run from this directory:  /usr/bin/python3 gen.py   -> writes statsmodels-reference.json
(floats written with repr, i.e. the shortest string that round-trips, at most 17 significant digits).

Sources:
  mcnemar        statsmodels.stats.contingency_tables.mcnemar(table, exact=True) and
                 exact=False with correction=True / False
  multipletests  statsmodels.stats.multitest.multipletests(p, method='holm' / 'fdr_bh' / 'bonferroni')
"""
import json
import random

import numpy as np
import scipy
import statsmodels
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

rng = random.Random(20261202)

tables = [
    (0, 0, 1, 0), (0, 1, 0, 0), (2, 0, 6, 0), (3, 5, 0, 0), (1, 1, 7, 12), (59, 6, 16, 80),
    (10, 3, 2, 5), (0, 1, 2, 0), (100, 40, 20, 0), (0, 0, 8, 0), (0, 8, 0, 0), (3, 4, 4, 3),
    (0, 499000, 501000, 0), (0, 497500, 502500, 0), (999000, 100, 160, 740),
]
for _ in range(15):
    n = rng.choice([6, 10, 25, 60, 300])
    cells = [0, 0, 0, 0]
    for _ in range(n):
        cells[rng.randrange(4)] += 1
    tables.append(tuple(cells))

rows = []
for both, fall, rise, neither in tables:
    table = np.array([[both, fall], [rise, neither]])
    ex = mcnemar(table, exact=True)
    row = {"both": both, "fall": fall, "rise": rise, "neither": neither,
           "exact": float(ex.pvalue), "exactStatistic": float(ex.statistic)}
    if rise + fall > 0:
        a = mcnemar(table, exact=False, correction=False)
        cc = mcnemar(table, exact=False, correction=True)
        row.update({"asymptotic": float(a.pvalue), "asymptoticStatistic": float(a.statistic),
                    "asymptoticCc": float(cc.pvalue), "asymptoticCcStatistic": float(cc.statistic)})
    rows.append(row)

pvecs = [
    [0.01, 0.04, 0.03],
    [0.2],
    [0.0, 1.0, 0.5, 0.0001],
    [0.02, 0.02, 0.02, 0.04, 0.9],
    [rng.random() ** 3 for _ in range(40)],
    [rng.random() * 1e-4 for _ in range(10)] + [rng.random() for _ in range(10)],
    # Appended after the vectors above so that their random draws stay the same.
    [0.0],                                    # length 1, zero
    [1.0],                                    # length 1, one
    [0.03],                                   # length 1
    [0.0, 0.0, 0.2, 0.0],                     # zeros, tied
    [1.0, 1.0, 0.01, 1.0],                    # ones, tied
    [1.0, 1.0, 1.0],                          # all ones
    [0.05, 0.05, 0.01, 0.01, 0.05],           # two tied groups, unsorted
    [0.001, 0.01, 0.02, 0.03, 0.5],           # already sorted
    [0.5, 0.3, 0.04, 0.01, 0.001],            # reverse sorted
    sorted(rng.random() for _ in range(30)),  # already sorted, longer
    sorted((rng.random() ** 2 for _ in range(25)), reverse=True),  # reverse sorted, longer
    [0.03] * 10,                              # all tied
    [0.049, 0.051],                           # m = 2 around 0.05
    [0.4, 0.6, 0.9, 0.95],                    # every adjusted value capped at 1
    [1e-300, 1e-200, 1e-10, 0.0],             # tiny values beside a zero
    [rng.random() ** 4 for _ in range(200)],  # m = 200
]
adjust = []
for p in pvecs:
    adjust.append({
        "p": p,
        "holm": [float(v) for v in multipletests(p, method="holm")[1]],
        "BH": [float(v) for v in multipletests(p, method="fdr_bh")[1]],
        "bonferroni": [float(v) for v in multipletests(p, method="bonferroni")[1]],
    })

out = {"generator": "gen.py", "statsmodels": statsmodels.__version__, "scipy": scipy.__version__,
       "mcnemar": rows, "multipletests": adjust}
with open("statsmodels-reference.json", "w") as f:
    json.dump(out, f, indent=1)
print("wrote statsmodels-reference.json")
