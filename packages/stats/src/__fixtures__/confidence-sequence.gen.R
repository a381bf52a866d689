# Reference values for confidence-sequence.ts, from base R only.
# Run from this directory:  Rscript confidence-sequence.gen.R  -> writes confidence-sequence.json.
#
# The betting confidence sequence of Waudby-Smith and Ramdas (2024, JRSS B 86:1-27) for the mean of
# values in [-1, 1], with the wealth a uniform mixture over the bets b_g = g / 1000, g = 1 .. 999:
#   K+(m) = mean_g prod_i (1 + b_g (m - x_i) / (1 - m))   (against "the mean is at least m")
#   K-(m) = mean_g prod_i (1 + b_g (x_i - m) / (1 + m))   (against "the mean is at most m")
# written here as R's own vector arithmetic: log K = log(mean(exp(colSums(log1p(...))))) with the
# largest term taken out, not the grouped loop of the TypeScript code. The bounds are
#   upper = sup { m : K+(m) < 2 / alpha },  lower = inf { m : K-(m) < 2 / alpha },  alpha = 1 - level,
# found by R's uniroot (tol 1e-14) on [estimate, 1 - 1e-15] (upper = 1 when K+ stays below there).
# A paired table is the values +1 (rise), -1 (fall) and 0 (both, neither).
# Clustered tables (clusteredChangeConfidenceSequence): a cluster of n pairs of which rise rose and fall fell,
# J the most pairs a cluster holds, is the value x = (rise - fall) / J with weight w = n / J:
#   K+(m) = mean_g prod_k (1 + b_g (m w_k - x_k) / (1 - m)),  K-(m) = mean_g prod_k (1 + b_g (x_k - m w_k) / (1 + m)),
# the estimate sum(rise - fall) / sum(n), the bounds as above.

options(digits = 17)
num <- function(x) sprintf("%.17g", x)
arr <- function(x) paste0("[", paste(vapply(x, num, ""), collapse = ", "), "]")

bets <- (1:999) / 1000
lse_mean <- function(l) { mx <- max(l); mx + log(mean(exp(l - mx))) }
logK_plus <- function(x, m) lse_mean(vapply(bets, function(b) sum(log1p(b * (m - x) / (1 - m))), 0))
logK_minus <- function(x, m) lse_mean(vapply(bets, function(b) sum(log1p(b * (x - m) / (1 + m))), 0))
logKw_plus <- function(x, w, m) lse_mean(vapply(bets, function(b) sum(log1p(b * (m * w - x) / (1 - m))), 0))
logKw_minus <- function(x, w, m) lse_mean(vapply(bets, function(b) sum(log1p(b * (x - m * w) / (1 + m))), 0))
csw <- function(x, w, level) {
  thr <- log(2 / (1 - level))
  est <- sum(x) / sum(w)
  top <- 1 - 1e-15
  f <- function(m) logKw_plus(x, w, m) - thr
  upper <- if (est >= top || f(top) < 0) 1 else uniroot(f, c(est, top), tol = 1e-14)$root
  g <- function(m) logKw_minus(x, w, m) - thr
  lower <- if (est <= -top || g(-top) < 0) -1 else uniroot(g, c(-top, est), tol = 1e-14)$root
  c(est, lower, upper)
}
cs <- function(x, level) {
  thr <- log(2 / (1 - level))
  est <- mean(x)
  top <- 1 - 1e-15
  f <- function(m) logK_plus(x, m) - thr
  upper <- if (est >= top || f(top) < 0) 1 else uniroot(f, c(est, top), tol = 1e-14)$root
  g <- function(m) logK_minus(x, m) - thr
  lower <- if (est <= -top || g(-top) < 0) -1 else uniroot(g, c(-top, est), tol = 1e-14)$root
  c(est, lower, upper)
}
table_values <- function(both, fall, rise, neither) c(rep(1, rise), rep(-1, fall), rep(0, both + neither))

set.seed(20261206)
tables <- list(
  c(0, 0, 0, 100), c(59, 6, 16, 80), c(10, 0, 0, 10), c(0, 0, 5, 0), c(3, 2, 1, 4), c(40, 12, 12, 36),
  c(0, 0, 0, 1), c(20, 0, 30, 50), c(100, 35, 38, 227), c(0, 7, 0, 0), c(250, 20, 5, 725)
)
levels <- c(0.95, 0.99, 1 - 0.05 / 6)
out <- c()
for (t in tables) for (level in levels) {
  x <- table_values(t[1], t[2], t[3], t[4])
  r <- cs(x, level)
  out <- c(out, sprintf('{"both": %d, "fall": %d, "rise": %d, "neither": %d, "level": %s, "estimate": %s, "lower": %s, "upper": %s}',
                        t[1], t[2], t[3], t[4], num(level), num(r[1]), num(r[2]), num(r[3])))
}
wealth <- c()
for (t in tables[c(2, 5, 6, 9)]) for (m in c(-0.3, -0.05, 0, 0.1, 0.35)) {
  x <- table_values(t[1], t[2], t[3], t[4])
  wealth <- c(wealth, sprintf('{"both": %d, "fall": %d, "rise": %d, "neither": %d, "m": %s, "logPlus": %s, "logMinus": %s}',
                              t[1], t[2], t[3], t[4], num(m), num(logK_plus(x, m)), num(logK_minus(x, m))))
}
means <- c()
for (k in 1:6) {
  n <- c(5, 20, 64, 64, 200, 31)[k]
  x <- if (k %% 2 == 0) round(runif(n, -1, 1), 3) else sample(c(-1, -0.5, 0, 0.25, 1), n, replace = TRUE)
  level <- levels[1 + k %% 3]
  r <- cs(x, level)
  means <- c(means, sprintf('{"values": %s, "level": %s, "estimate": %s, "lower": %s, "upper": %s}', arr(x), num(level), num(r[1]), num(r[2]), num(r[3])))
}
clustered <- c()
for (k in 1:6) {
  J <- c(2, 3, 5, 2, 4, 3)[k]
  S <- c(12, 40, 25, 80, 30, 60)[k]
  n <- sample(1:J, S, replace = TRUE)
  if (k %% 3 == 0) n <- rep(J, S)
  rise <- rbinom(S, n, c(0.3, 0.2, 0.1, 0.25, 0.15, 0.4)[k])
  fall <- rbinom(S, n - rise, c(0.1, 0.2, 0.05, 0.1, 0.15, 0.1)[k])
  size <- if (k == 2) J + 1 else max(n)
  level <- levels[1 + k %% 3]
  r <- csw((rise - fall) / size, n / size, level)
  clustered <- c(clustered, sprintf('{"rise": %s, "fall": %s, "n": %s, "clusterSize": %d, "level": %s, "estimate": %s, "lower": %s, "upper": %s}',
                                    arr(rise), arr(fall), arr(n), size, num(level), num(r[1]), num(r[2]), num(r[3])))
}
writeLines(c("{",
  sprintf('"rVersion": "%s",', R.version.string),
  '"tables": [', paste(out, collapse = ",\n"), '],',
  '"wealth": [', paste(wealth, collapse = ",\n"), '],',
  '"means": [', paste(means, collapse = ",\n"), '],',
  '"clustered": [', paste(clustered, collapse = ",\n"), ']',
  "}"), "confidence-sequence.json")
