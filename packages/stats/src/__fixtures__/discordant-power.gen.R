# Reference values for the discordance-aware power and limits (STATS.md, "Limits") and for the exact
# power of Fisher's test (STATS.md, "The unpaired fallback"). R's stats package only.
# Run from this directory:  Rscript discordant-power.gen.R   -> writes discordant-power.json
#
# McNemar power at discordance psi: each of n pairs is discordant with probability psi; a discordant
# pair goes the change's way with probability theta = (psi + d) / (2 psi). The test rejects a table
# with k discordant pairs, X of them the change's way, when min(X, k - X) <= c_k, c_k the largest
# c < k/2 whose p-value is <= alpha:
#   exact        binom.test(c, k)$p.value (checked below against 2 * pbinom(c, k, 1/2))
#   midp         2 * pbinom(c - 1, k, 1/2) + dbinom(c, k, 1/2)
#   asymptotic   pchisq((k - 2c)^2 / k, 1, lower.tail = FALSE)           (mcnemar.test(correct = FALSE))
#   asymptotic-cc pchisq(max(k - 2c - 1, 0)^2 / k, 1, lower.tail = FALSE) (mcnemar.test())
# power = sum_k dbinom(k, n, psi) * (pbinom(c_k, k, theta) + pbinom(c_k, k, 1 - theta)), summed over
# every k (no window). The limit: uniroot on d -> power(n, d, max(psi_hat, d)) - target.
#
# Fisher power: after = before +- d, the runs' own sizes; summed over both binomials, each table
# rejected when its two-sided fisher.test p-value <= alpha, computed as fisher.test computes it
# (dhyper over the support, relative tolerance 1 + 1e-7); the vectorised form is checked against
# fisher.test itself on every table of three small designs below.

options(digits = 17)
num <- function(x) if (is.infinite(x)) "\"Infinity\"" else sprintf("%.17g", x)
row_json <- function(r) paste0("{", paste(mapply(function(k, v) paste0("\"", k, "\": ",
  if (is.character(v)) paste0("\"", v, "\"") else num(v)), names(r), r), collapse = ", "), "}")
list_json <- function(rows) paste0("[\n  ", paste(vapply(rows, row_json, ""), collapse = ",\n  "), "\n]")

pvalue <- function(c, k, method) {
  switch(method,
    exact = min(1, 2 * pbinom(c, k, 0.5)),
    midp = min(1, 2 * pbinom(c - 1, k, 0.5) + dbinom(c, k, 0.5)),
    asymptotic = pchisq((k - 2 * c)^2 / k, 1, lower.tail = FALSE),
    "asymptotic-cc" = pchisq(max(k - 2 * c - 1, 0)^2 / k, 1, lower.tail = FALSE))
}
# c_k: the largest c < k/2 with p <= alpha (-1 when none), starting from qbinom's guess.
bound <- function(k, alpha, method) {
  if (k == 0) return(-1)
  top <- ceiling(k / 2) - 1
  c <- min(top, qbinom(alpha / 2, k, 0.5))
  while (c >= 0 && pvalue(c, k, method) > alpha) c <- c - 1
  while (c + 1 <= top && pvalue(c + 1, k, method) <= alpha) c <- c + 1
  c
}
for (k in 1:60) for (c in 0:(ceiling(k / 2) - 1)) {
  stopifnot(abs(binom.test(c, k, 0.5)$p.value - pvalue(c, k, "exact")) < 1e-12)
}
bounds_for <- function(n, alpha, method) vapply(0:n, bound, 0, alpha = alpha, method = method)

power_at <- function(n, d, psi, alpha, method, cs = bounds_for(n, alpha, method)) {
  if (psi == 0) return(0)
  theta <- (psi + d) / (2 * psi)
  k <- 0:n
  w <- dbinom(k, n, psi)
  rej <- ifelse(cs < 0, 0, pbinom(cs, k, theta) + pbinom(cs, k, 1 - theta))
  sum(w * rej)
}
mde_at <- function(n, psi_hat, alpha, target, method) {
  cs <- bounds_for(n, alpha, method)
  f <- function(d) power_at(n, d, max(psi_hat, d), alpha, method, cs) - target
  if (f(1) < 0) return(Inf)
  uniroot(f, c(0, 1), tol = 1e-13)$root
}

power_cases <- list(
  list(200, 0.14339, 0.5, 0.05, "exact"), list(200, 0.1, 0.5, 0.05, "exact"),
  list(64, 0.19464, 0.3, 0.05, "exact"), list(64, 0.1, 0.3, 0.05, "exact"),
  list(8, 0.5, 0.9, 0.05, "exact"), list(8, 0.8, 0.9, 0.05, "exact"),
  list(32, 0.2, 0.5, 0.05, "exact"), list(128, 0.1, 0.48, 0.05, "exact"),
  list(128, 0.039, 0.48, 0.05, "exact"), list(500, 0.05, 0.2, 0.01, "exact"),
  list(1000, 0.03, 0.1, 0.05 / 12, "exact"), list(2000, 0.02, 0.5, 0.05, "exact"),
  list(300, 0, 0.4, 0.05, "exact"), list(50, 0.3, 1, 0.05, "exact"),
  list(20000, 0.01, 0.3, 0.05, "exact"), list(20000, 0.02, 0.5, 0.001, "exact"),
  list(150, 0.1, 0.3, 0.05, "midp"), list(150, 0.1, 0.3, 0.05, "asymptotic"),
  list(150, 0.1, 0.3, 0.05, "asymptotic-cc"), list(40, 0.25, 0.6, 0.01, "midp"),
  list(40, 0.25, 0.6, 0.01, "asymptotic"), list(40, 0.25, 0.6, 0.01, "asymptotic-cc"),
  list(1000, 0.04, 0.25, 0.05 / 6, "asymptotic-cc"),
  # The diff benchmark's designs (packages/stats/bench/diff-designs.json: 100 conditions x 2 events of
  # about 9,800 pairs, alpha = 0.05 / 200), where the fast path (weights, bounds and recurrences once per
  # design) matters most, and one at n = 10^5.
  list(9833, 0.028, 3721 / 9833, 0.05 / 200, "exact"), list(9833, 0.013, 767 / 9833, 0.05 / 200, "exact"),
  list(9833, 0.02, 3721 / 9833, 0.05 / 200, "midp"), list(100000, 0.008, 0.3, 0.001, "exact")
)
power_rows <- lapply(power_cases, function(cs) {
  n <- cs[[1]]; d <- cs[[2]]; psi <- cs[[3]]; alpha <- cs[[4]]; method <- cs[[5]]
  list(n = n, change = d, discordance = psi, alpha = alpha, method = method,
       power = power_at(n, d, max(psi, d), alpha, method))
})

mde_cases <- list(
  list(200, 0.5, 0.05, 0.8, "exact"), list(64, 0.3, 0.05, 0.8, "exact"),
  list(200, 0.48, 0.05, 0.8, "exact"), list(32, 0.48, 0.05, 0.8, "exact"),
  list(128, 0.48, 0.05, 0.8, "exact"), list(8, 0.25, 0.05, 0.8, "exact"),
  list(100, 0.1, 0.05, 0.9, "exact"), list(400, 0.2, 0.01, 0.8, "exact"),
  list(1000, 0.05, 0.05 / 6, 0.8, "exact"), list(50, 0.6, 0.05, 0.8, "midp"),
  list(50, 0.6, 0.05, 0.8, "asymptotic"), list(50, 0.6, 0.05, 0.8, "asymptotic-cc"),
  list(5, 0.5, 0.05, 0.8, "exact"), list(3000, 0.35, 0.05 / 4, 0.8, "exact"),
  list(9833, 3721 / 9833, 0.05 / 200, 0.8, "exact"), list(9833, 767 / 9833, 0.05 / 200, 0.8, "exact")
)
mde_rows <- lapply(mde_cases, function(cs) {
  list(n = cs[[1]], discordance = cs[[2]], alpha = cs[[3]], power = cs[[4]], method = cs[[5]],
       mde = mde_at(cs[[1]], cs[[2]], cs[[3]], cs[[4]], cs[[5]]))
})

# The limit when a change also moves the discordance (a target that disagrees with itself: two
# independent draws per seed, and a change of d in every seed's rate from rate r gives discordance
# E[p(1 - q) + q(1 - p)] = base + d (1 - 2r) for a rise, base + d (2r - 1) for a fall, base the
# discordance without a change): the discordance at d is psi(d) = min(1, max(psi_hat, d, base + slope d));
# uniroot on d as above.
mde_slope_at <- function(n, psi_hat, slope, alpha, target, method, base = psi_hat) {
  cs <- bounds_for(n, alpha, method)
  psi <- function(d) min(1, max(psi_hat, d, base + slope * d))
  f <- function(d) power_at(n, d, psi(d), alpha, method, cs) - target
  if (f(1) < 0) return(Inf)
  uniroot(f, c(0, 1), tol = 1e-13)$root
}
slope_cases <- list(
  # The review's designs (fourth session of 2026-12-05): before rate 0.1 (psi_hat 2 * 0.1 * 0.9 = 0.18,
  # a rise's slope 1 - 2 * 0.1 = 0.8) and 0.3 (psi_hat 0.42, slope 0.4), 128 and 512 pairs.
  list(128, 0.18, 0.8, 0.05, 0.8, "exact"), list(512, 0.18, 0.8, 0.05, 0.8, "exact"),
  list(128, 0.42, 0.4, 0.05, 0.8, "exact"), list(128, 0.42, 0.4, 0.05 / 6, 0.8, "exact"),
  list(32, 0.18, 0.8, 0.05 / 3, 0.8, "exact"), list(128, 0.18, 0.8, 0.05 / 6, 0.8, "exact"),
  list(200, 0.3, 0.5, 0.05, 0.9, "exact"), list(1000, 0.05, 0.95, 0.05 / 12, 0.8, "exact"),
  list(64, 0.0, 1, 0.05, 0.8, "exact"), list(64, 0.1, -0.6, 0.05, 0.8, "exact"),
  list(150, 0.2, 0.7, 0.05, 0.8, "midp"), list(150, 0.2, 0.7, 0.05, 0.8, "asymptotic"),
  list(150, 0.2, 0.7, 0.05, 0.8, "asymptotic-cc"), list(9833, 767 / 9833, 0.9, 0.05 / 200, 0.8, "exact"),
  # A base other than psi_hat: the discordance the runs would have had without the change they show
  # (psi_hat - change (1 - 2r), at least 0). One pair of 8 rose from rate 0: base 0, the one-way 0.8014.
  list(8, 0.125, 1, 0.05, 0.8, "exact", 0), list(128, 0.2, -0.4, 0.05, 0.8, "exact", 0.25),
  list(128, 0.25, 0.6, 0.05, 0.8, "exact", 0.15), list(400, 0.3, 0.5, 0.01, 0.8, "midp", 0.35),
  # Slope 1 from psi_hat, as the diff reads tables whose pairs disagree both ways (psi^ + d): the limits
  # docs/statistics.md and docs/diff.md quote (0.145 at 128 and 23/128; 0.165 at 200 and 0.5).
  list(128, 23 / 128, 1, 0.05, 0.8, "exact"), list(200, 0.5, 1, 0.05, 0.8, "exact"),
  list(9833, 3721 / 9833, 1, 0.05 / 200, 0.8, "exact")
)
slope_rows <- lapply(slope_cases, function(cs) {
  base <- if (length(cs) >= 7) cs[[7]] else cs[[2]]
  list(n = cs[[1]], discordance = cs[[2]], base = base, slope = cs[[3]], alpha = cs[[4]], power = cs[[5]], method = cs[[6]],
       mde = mde_slope_at(cs[[1]], cs[[2]], cs[[3]], cs[[4]], cs[[5]], cs[[6]], base))
})
# A check of the model by simulation (seeded; not written out): two independent runs of n seeds at
# rates r and r + d, d the limit from psi_hat = 2 r (1 - r) and slope 1 - 2 r; the exact McNemar test
# at alpha must reject about `power` of the time (the limit from the constant-discordance model, read
# at these designs, was rejected 0.45 to 0.75 of the time in the review's simulation).
set.seed(20261205)
sim_power <- function(n, r, d, alpha, reps = 4000) {
  hits <- 0
  for (i in 1:reps) {
    a <- runif(n) < r; b <- runif(n) < r + d
    rise <- sum(!a & b); fall <- sum(a & !b)
    if (rise + fall > 0 && binom.test(min(rise, fall), rise + fall, 0.5)$p.value <= alpha) hits <- hits + 1
  }
  hits / reps
}
for (cs in list(c(128, 0.1, 0.05), c(128, 0.3, 0.05), c(512, 0.1, 0.05))) {
  d <- mde_slope_at(cs[1], 2 * cs[2] * (1 - cs[2]), 1 - 2 * cs[2], cs[3], 0.8, "exact")
  sp <- sim_power(cs[1], cs[2], d, cs[3])
  cat(sprintf("simulated power at the limit %.4f (n %d, rate %.1f): %.4f\n", d, cs[1], cs[2], sp))
  stopifnot(sp > 0.77)
}

# ---------------------------------------------------------------- Fisher power
# Rejection mask over x = events in run A, for the table [[x, n1 - x], [t - x, n2 - t + x]], as
# fisher.test computes the two-sided p-value (m = t, n = n1 + n2 - t, k = n1 in dhyper's terms).
fisher_reject <- function(t, n1, n2, alpha) {
  m <- t; nn <- n1 + n2 - t; k <- n1
  lo <- max(0, k - nn); hi <- min(k, m)
  support <- lo:hi
  d <- dhyper(support, m, nn, k, log = TRUE)
  d <- exp(d - max(d)); d <- d / sum(d)
  p <- vapply(seq_along(support), function(i) sum(d[d <= d[i] * (1 + 1e-7)]), 0)
  list(lo = lo, reject = p <= alpha)
}
fisher_power <- function(n1, n2, p1, p2, alpha) {
  f1 <- dbinom(0:n1, n1, p1); f2 <- dbinom(0:n2, n2, p2)
  total <- 0
  for (t in 0:(n1 + n2)) {
    r <- fisher_reject(t, n1, n2, alpha)
    x <- r$lo - 1 + which(r$reject)
    x <- x[x >= 0 & x <= n1 & t - x >= 0 & t - x <= n2]
    if (length(x)) total <- total + sum(f1[x + 1] * f2[t - x + 1])
  }
  total
}
fisher_power_brute <- function(n1, n2, p1, p2, alpha) {
  total <- 0
  for (x1 in 0:n1) for (x2 in 0:n2) {
    p <- fisher.test(matrix(c(x1, x2, n1 - x1, n2 - x2), 2))$p.value
    if (p <= alpha) total <- total + dbinom(x1, n1, p1) * dbinom(x2, n2, p2)
  }
  total
}
for (cs in list(c(12, 15, 0.3, 0.7, 0.05), c(20, 9, 0.5, 0.1, 0.01), c(25, 25, 0.2, 0.45, 0.05))) {
  a <- fisher_power(cs[1], cs[2], cs[3], cs[4], cs[5])
  b <- fisher_power_brute(cs[1], cs[2], cs[3], cs[4], cs[5])
  stopifnot(abs(a - b) < 1e-12)
}
fisher_cases <- list(
  c(100, 100, 0.5, 0.693, 0.05), c(100, 100, 0.5, 0.5 + 0.1932, 0.05), c(100, 100, 0.5, 0.3, 0.05),
  c(100, 100, 0.5, 0.72, 0.05), c(50, 80, 0.2, 0.45, 0.05), c(80, 50, 0.9, 0.7, 0.01),
  c(8, 8, 1, 0.2, 0.05), c(8, 8, 0, 0.9, 0.05), c(30, 30, 0.4, 0.4, 0.05), c(200, 200, 0.4, 0.52, 0.05 / 3),
  c(200, 150, 0.05, 0.15, 0.05), c(10, 40, 0.5, 0.95, 0.05), c(40, 10, 0.6, 0.05, 0.05),
  c(120, 120, 0.25, 0.4, 0.005), c(64, 64, 0.7, 0.45, 0.05), c(300, 300, 0.5, 0.6, 0.05),
  c(5, 7, 0.2, 1, 0.05), c(60, 90, 0.33, 0.1, 0.025), c(150, 100, 0.8, 0.95, 0.05), c(1, 1, 0.5, 0.5, 0.5),
  c(400, 400, 0.1, 0.16, 0.05 / 8)
)
fisher_rows <- lapply(fisher_cases, function(cs) list(n1 = cs[1], n2 = cs[2], p1 = cs[3], p2 = cs[4],
  alpha = cs[5], power = fisher_power(cs[1], cs[2], cs[3], cs[4], cs[5])))

cat(paste0("{\n\"rVersion\": \"", R.version.string, "\",\n",
  "\"power\": ", list_json(power_rows), ",\n",
  "\"mde\": ", list_json(mde_rows), ",\n",
  "\"mdeSlope\": ", list_json(slope_rows), ",\n",
  "\"fisherPower\": ", list_json(fisher_rows), "\n}\n"), file = "discordant-power.json")
