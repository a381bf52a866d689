# Reference values for poisson-stats from R (stats package only; no contributed packages).
# Run from this directory:  Rscript gen.R   -> writes r-reference.json (17 significant digits).
#
# Sources per section:
#   mcnemar      R's binom.test (exact), pbinom/dbinom (mid-p formula of Fagerland et al. 2013),
#                mcnemar.test(correct = FALSE / TRUE)
#   padjust      R's p.adjust(method = "holm" / "BH" / "bonferroni")
#   power        R's pbinom (upper tail) and uniroot for the MDE; k* by a scan over binom.test-style
#                one-way p-values written independently below
#   tango        an independent implementation of Tango (1998): the restricted MLE under
#                change = d found numerically (optimize() on the multinomial log-likelihood over
#                the one free parameter, not the closed-form root of Tango's quadratic), then the
#                score statistic and the interval ends by uniroot
#   fisher       R's fisher.test
#   newcombe     Wilson intervals from R's prop.test(correct = FALSE), combined by Newcombe's
#                method 10 (Newcombe 1998, Statistics in Medicine 17:873)
#   wilson       R's prop.test(x, n, conf.level, correct = FALSE)$conf.int (one proportion)
#   unpaired     R's power.prop.test (n1 = n2) and the same formula written out for n1 != n2
#   normal       R's qnorm, pnorm, pchisq

options(digits = 17)

num <- function(x) {
  if (is.na(x)) return("null")
  if (is.infinite(x)) return(if (x > 0) "\"Infinity\"" else "\"-Infinity\"")
  sprintf("%.17g", x)
}
to_json <- function(x) {
  if (is.list(x)) {
    if (!is.null(names(x)) && all(names(x) != "")) {
      parts <- mapply(function(k, v) paste0("\"", k, "\": ", to_json(v)), names(x), x)
      return(paste0("{", paste(parts, collapse = ", "), "}"))
    }
    return(paste0("[", paste(vapply(x, to_json, ""), collapse = ",\n "), "]"))
  }
  if (is.character(x)) {
    if (length(x) == 1) return(paste0("\"", x, "\""))
    return(paste0("[", paste0("\"", x, "\"", collapse = ", "), "]"))
  }
  if (is.logical(x) && length(x) == 1 && !is.na(x)) return(if (x) "true" else "false")
  if (length(x) == 1 && is.null(attr(x, "vector"))) return(num(x))
  paste0("[", paste(vapply(x, num, ""), collapse = ", "), "]")
}
vec <- function(x) structure(x, vector = TRUE) # always a JSON array, even of length 1

# ---------------------------------------------------------------- paired tables
set.seed(20261202)
tables <- list(
  c(both = 0, fall = 0, rise = 0, neither = 8),       # k = 0
  c(both = 4, fall = 0, rise = 0, neither = 4),       # k = 0
  c(both = 1, fall = 0, rise = 0, neither = 0),       # n = 1, k = 0
  c(both = 0, fall = 0, rise = 1, neither = 0),       # n = 1, rise = n
  c(both = 0, fall = 1, rise = 0, neither = 0),       # n = 1, fall = n
  c(both = 0, fall = 0, rise = 8, neither = 0),       # rise = n
  c(both = 0, fall = 8, rise = 0, neither = 0),       # fall = n
  c(both = 2, fall = 0, rise = 6, neither = 0),       # one-way, the seed's k* = 6
  c(both = 3, fall = 5, rise = 0, neither = 0),       # one-way fall
  c(both = 0, fall = 0, rise = 20, neither = 5),      # one-way
  c(both = 1, fall = 1, rise = 7, neither = 12),      # Bentur et al. 2009 (rise = n21, fall = n12)
  c(both = 59, fall = 6, rise = 16, neither = 80),    # Cavo et al. 2012 (rise = n21, fall = n12)
  c(both = 3, fall = 4, rise = 4, neither = 3),       # balanced
  c(both = 10, fall = 3, rise = 2, neither = 5),
  c(both = 0, fall = 1, rise = 2, neither = 0),
  c(both = 100, fall = 40, rise = 20, neither = 0),   # PropCIs example b = 40, c = 20, n = 160
  c(both = 0, fall = 499000, rise = 501000, neither = 0),        # n = 10^6, large k
  c(both = 0, fall = 497500, rise = 502500, neither = 0),        # n = 10^6, p ~ 6e-7
  c(both = 250000, fall = 249000, rise = 251000, neither = 250000),
  c(both = 999000, fall = 100, rise = 160, neither = 740),       # n = 10^6, small k
  c(both = 0, fall = 0, rise = 1000000, neither = 0)             # n = 10^6, rise = n
)
for (i in 1:14) {
  n <- sample(c(5:60, 200, 1000), 1)
  cells <- as.vector(rmultinom(1, n, prob = runif(4)))
  tables[[length(tables) + 1]] <- c(both = cells[1], fall = cells[2], rise = cells[3], neither = cells[4])
}

exact_p <- function(rise, fall) {
  k <- rise + fall
  if (k == 0) return(1)
  binom.test(min(rise, fall), k, 0.5)$p.value
}
midp_p <- function(rise, fall) {
  k <- rise + fall
  if (rise == fall) return(1)
  m <- min(rise, fall)
  min(1, 2 * pbinom(m - 1, k, 0.5) + dbinom(m, k, 0.5))
}
mcn <- function(both, fall, rise, neither, correct) {
  if (rise + fall == 0) return(list(statistic = NA, pValue = NA))
  t <- suppressWarnings(mcnemar.test(matrix(c(both, rise, fall, neither), 2), correct = correct))
  list(statistic = unname(t$statistic), pValue = t$p.value)
}

mcnemar_rows <- lapply(tables, function(t) {
  a <- mcn(t[["both"]], t[["fall"]], t[["rise"]], t[["neither"]], FALSE)
  cc <- mcn(t[["both"]], t[["fall"]], t[["rise"]], t[["neither"]], TRUE)
  list(both = t[["both"]], fall = t[["fall"]], rise = t[["rise"]], neither = t[["neither"]],
       exact = exact_p(t[["rise"]], t[["fall"]]), midp = midp_p(t[["rise"]], t[["fall"]]),
       asymptotic = a$pValue, asymptoticStatistic = a$statistic,
       asymptoticCc = cc$pValue, asymptoticCcStatistic = cc$statistic)
})

# ---------------------------------------------------------------- Tango (independent, numerical MLE)
# The paired table is multinomial over (both, fall, rise, neither) with probabilities
# (p11, p_fall, p_rise, p22). Under H0: p_rise - p_fall = d, write p_fall = q and p_rise = q + d;
# the concordant cells enter the likelihood only through their total 1 - 2q - d (their split is
# maximized at the observed proportions whatever q is), so the profile log-likelihood in the one
# free parameter q is
#   l(q) = c log q + b log(q + d) + (n - b - c) log(1 - 2q - d),  q in [max(0, -d), (1 - d) / 2],
# with 0 log 0 = 0. The restricted MLE q~ maximizes it: optimize() finds the maximum (to about 1e-8,
# the most a golden-section search can resolve on a flat top), then uniroot() polishes it on the
# profile score dl/dq = c / q + b / (q + d) - 2 (n - b - c) / (1 - 2q - d), decreasing in q, inside
# a bracket around optimize()'s answer (halfway to either end). No closed form is used. Tango's
# score statistic is Z(d) = (b - c - n d) / sqrt(n (2 q~ + d - d^2)) (Tango 1998; the variance of
# b - c under H0 is n (p_rise + p_fall - d^2)).
xlogy <- function(x, y) if (x == 0) 0 else x * log(y)
tango_loglik <- function(q, d, b, c, n) {
  xlogy(c, q) + xlogy(b, q + d) + xlogy(n - b - c, max(0, 1 - 2 * q - d))
}
tango_restricted_mle <- function(d, b, c, n) {
  lo <- max(0, -d)
  hi <- (1 - d) / 2
  if (hi - lo <= 0) return(lo)
  opt <- optimize(function(q) tango_loglik(q, d, b, c, n), c(lo, hi), maximum = TRUE, tol = 1e-15)
  # optimize() only visits interior points; the maximum may sit on an end (an empty cell).
  cands <- c(lo, opt$maximum, hi)
  vals <- vapply(cands, function(q) tango_loglik(q, d, b, c, n), 0)
  q <- cands[which.max(vals)]
  if (q == lo || q == hi) return(q)
  score <- function(q) {
    (if (c == 0) 0 else c / q) + (if (b == 0) 0 else b / (q + d)) -
      (if (n - b - c == 0) 0 else 2 * (n - b - c) / (1 - 2 * q - d))
  }
  a <- (lo + q) / 2 # strictly inside (lo, hi), where the score is finite
  z <- (q + hi) / 2
  sa <- score(a)
  sz <- score(z)
  if (!is.finite(sa) || !is.finite(sz) || sa < 0 || sz > 0) return(q) # no sign change: keep optimize()
  if (sa == 0) return(a)
  if (sz == 0) return(z)
  uniroot(score, c(a, z), f.lower = sa, f.upper = sz, tol = 1e-300)$root
}
tango_z <- function(d, b, c, n) {
  num <- b - c - n * d
  if (num == 0) return(0)
  q <- tango_restricted_mle(d, b, c, n)
  v <- n * (2 * q + d - d^2)
  if (v <= 0) return(if (num > 0) Inf else -Inf)
  num / sqrt(v)
}
tango_ci <- function(b, c, n, level) {
  z <- qnorm((1 - level) / 2, lower.tail = FALSE)
  est <- (b - c) / n
  # Z is +Inf at d = -1 and -Inf at d = 1 (variance 0); uniroot() warns that it replaces an infinite
  # end value by the largest double, which is harmless here, so that warning is muffled.
  root <- function(f, ends) suppressWarnings(uniroot(f, ends, tol = 1e-14)$root)
  lower <- if (c == n) -1 else root(function(d) tango_z(d, b, c, n) - z, c(-1, est))
  upper <- if (b == n) 1 else root(function(d) tango_z(d, b, c, n) + z, c(est, 1))
  list(estimate = est, lower = lower, upper = upper)
}
tango_rows <- list()
for (t in tables) {
  n <- sum(t)
  if (n == 0) next
  for (level in c(0.95, 0.99, 1 - 0.05 / 12)) {
    ci <- tango_ci(t[["rise"]], t[["fall"]], n, level)
    tango_rows[[length(tango_rows) + 1]] <- list(both = t[["both"]], fall = t[["fall"]],
      rise = t[["rise"]], neither = t[["neither"]], level = level,
      estimate = ci$estimate, lower = ci$lower, upper = ci$upper)
  }
}

# ---------------------------------------------------------------- p.adjust
pv <- list(
  vec(c(0.01, 0.04, 0.03)),
  vec(c(0.5)),
  vec(c(0, 1, 0.5, 0.0001)),
  vec(c(0.02, 0.02, 0.02, 0.04, 0.9)),                 # ties
  vec(c(0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216, 0.222, 0.251, 0.269, 0.275, 0.34)),
  vec(runif(50)^3),
  vec(c(runif(20) * 1e-6, runif(20))),
  vec(rep(1, 4)),
  vec(c(1e-300, 0.3, 0.7)),
  # Appended after the vectors above so that their random draws stay the same.
  vec(c(0)),                                           # length 1, zero
  vec(c(1)),                                           # length 1, one
  vec(c(0, 0, 0.2, 0)),                                # zeros, tied
  vec(c(1, 1, 0.01, 1)),                               # ones, tied
  vec(c(0.05, 0.05, 0.01, 0.01, 0.05)),                # two tied groups, unsorted
  vec(c(0.001, 0.01, 0.02, 0.03, 0.5)),                # already sorted
  vec(c(0.5, 0.3, 0.04, 0.01, 0.001)),                 # reverse sorted
  vec(sort(runif(30))),                                # already sorted, longer
  vec(rev(sort(runif(25)^2))),                         # reverse sorted, longer
  vec(rep(0.03, 10)),                                  # all tied
  vec(c(0.049, 0.051)),                                # m = 2 around 0.05
  vec(c(0.4, 0.6, 0.9, 0.95)),                         # every adjusted value capped at 1
  vec(c(1e-300, 1e-200, 1e-10, 0)),                    # tiny values beside a zero
  vec(runif(200)^4)                                    # m = 200
)
padjust_rows <- lapply(pv, function(p) list(p = vec(p), holm = vec(p.adjust(p, "holm")),
  BH = vec(p.adjust(p, "BH")), bonferroni = vec(p.adjust(p, "bonferroni"))))

# ---------------------------------------------------------------- power and MDE
one_way_p <- function(k, method) {
  if (method == "exact") return(exact_p(k, 0))
  if (method == "midp") return(midp_p(k, 0))
  if (method == "asymptotic") return(pchisq(k, 1, lower.tail = FALSE))
  pchisq((k - 1)^2 / k, 1, lower.tail = FALSE)
}
k_star <- function(alpha, method) {
  k <- 1
  while (one_way_p(k, method) > alpha) k <- k + 1
  k
}
critical_rows <- list()
for (method in c("exact", "midp", "asymptotic", "asymptotic-cc")) {
  for (alpha in c(0.5, 0.1, 0.0625, 0.05, 0.05 / 3, 0.01, 0.05 / 24, 1e-4, 1e-6, 1e-10)) {
    critical_rows[[length(critical_rows) + 1]] <- list(method = method, alpha = alpha, kStar = k_star(alpha, method))
  }
}
power_rows <- list()
for (n in c(1, 5, 6, 8, 20, 100, 1000, 100000, 1000000)) {
  for (alpha in c(0.05, 0.05 / 12, 0.001)) {
    for (d in c(0, 1e-6, 1e-4, 0.01, 0.1, 0.3, 0.5, 0.801, 0.99, 1)) {
      k <- k_star(alpha, "exact")
      power_rows[[length(power_rows) + 1]] <- list(n = n, alpha = alpha, change = d, method = "exact",
        power = if (n < k) 0 else pbinom(k - 1, n, d, lower.tail = FALSE))
    }
  }
}
for (method in c("midp", "asymptotic", "asymptotic-cc")) {
  for (n in c(8, 40, 1000)) for (d in c(0.05, 0.2, 0.6)) {
    k <- k_star(0.05, method)
    power_rows[[length(power_rows) + 1]] <- list(n = n, alpha = 0.05, change = d, method = method,
      power = if (n < k) 0 else pbinom(k - 1, n, d, lower.tail = FALSE))
  }
}
mde_rows <- list()
for (method in c("exact", "midp")) {
  for (n in c(1, 5, 6, 7, 8, 10, 12, 20, 50, 100, 1000, 10000, 1000000)) {
    for (alpha in c(0.05, 0.05 / 12)) {
      for (power in c(0.8, 0.9)) {
        k <- k_star(alpha, method)
        mde <- if (n < k) Inf else uniroot(function(d) pbinom(k - 1, n, d, lower.tail = FALSE) - power,
          c(0, 1), tol = 1e-15)$root
        mde_rows[[length(mde_rows) + 1]] <- list(n = n, alpha = alpha, power = power, method = method, mde = mde)
      }
    }
  }
}

# ---------------------------------------------------------------- Fisher
fisher_tables <- list(c(3, 1, 1, 3), c(8, 0, 8, 0), c(0, 0, 0, 0), c(1, 0, 0, 0), c(10, 2, 3, 15),
  c(8, 0, 6, 2), c(0, 8, 8, 0), c(7, 1, 2, 6), c(50, 50, 30, 70), c(12, 5, 9, 7), c(1, 9, 11, 3),
  c(100, 0, 0, 100), c(5, 0, 0, 0), c(20, 80, 20, 80), c(300, 700, 350, 650), c(2, 30, 0, 32),
  c(1000, 9000, 1100, 8900), c(0, 5, 5, 0), c(4, 4, 4, 4), c(25, 5, 15, 15), c(99, 1, 90, 10))
fisher_rows <- lapply(fisher_tables, function(t) {
  list(a = t[1], b = t[2], c = t[3], d = t[4],
       pValue = fisher.test(matrix(t, 2, byrow = TRUE))$p.value)
})

# ---------------------------------------------------------------- Newcombe method 10
wilson <- function(x, n, level) {
  if (x == 0) return(c(0, suppressWarnings(prop.test(x, n, correct = FALSE, conf.level = level))$conf.int[2]))
  if (x == n) return(c(suppressWarnings(prop.test(x, n, correct = FALSE, conf.level = level))$conf.int[1], 1))
  as.vector(suppressWarnings(prop.test(x, n, correct = FALSE, conf.level = level))$conf.int)
}
newcombe <- function(x1, n1, x2, n2, level) {
  w1 <- wilson(x1, n1, level); w2 <- wilson(x2, n2, level)
  p1 <- x1 / n1; p2 <- x2 / n2; est <- p2 - p1
  list(estimate = est, lower = est - sqrt((p2 - w2[1])^2 + (w1[2] - p1)^2),
       upper = est + sqrt((w2[2] - p2)^2 + (p1 - w1[1])^2))
}
nc_cases <- list(c(48, 80, 56, 70), c(3, 10, 9, 10), c(2, 7, 6, 7), c(0, 29, 5, 56), c(0, 20, 0, 10),
  c(0, 10, 0, 10), c(0, 20, 10, 10), c(0, 10, 10, 10), c(8, 8, 6, 8), c(1, 1, 0, 1), c(0, 1, 1, 1),
  c(500, 1000, 530, 1000), c(12, 40, 30, 45), c(7, 7, 0, 9), c(100000, 1000000, 100500, 1000000),
  c(3, 8, 3, 8), c(15, 16, 2, 30), c(40, 50, 41, 60), c(1, 3, 2, 3), c(33, 100, 21, 100))
newcombe_rows <- list()
for (cs in nc_cases) for (level in c(0.95, 0.99)) {
  r <- newcombe(cs[1], cs[2], cs[3], cs[4], level)
  newcombe_rows[[length(newcombe_rows) + 1]] <- list(x1 = cs[1], n1 = cs[2], x2 = cs[3], n2 = cs[4],
    level = level, estimate = r$estimate, lower = r$lower, upper = r$upper)
}

# ---------------------------------------------------------------- Wilson, one proportion
# Each case: x, n, level. Includes x = 0, x = n, n = 1 and a large n.
wilson_cases <- list(c(0, 1, 0.95), c(1, 1, 0.95), c(0, 1, 0.99), c(1, 1, 0.9), c(0, 8, 0.95),
  c(8, 8, 0.95), c(3, 8, 0.95), c(2, 7, 0.95), c(17, 32, 0.95), c(5, 128, 0.95), c(127, 128, 0.99),
  c(40, 100, 0.9), c(0, 1000, 0.95), c(999, 1000, 0.95), c(1000, 1000, 0.99), c(1, 2, 0.95),
  c(2, 3, 0.8), c(50, 50, 0.5), c(0, 30, 0.999), c(12, 40, 0.95), c(500000, 1000000, 0.95),
  c(3, 1000000, 0.95), c(33, 100, 0.99), c(9, 10, 0.95))
wilson_rows <- lapply(wilson_cases, function(cs) {
  ci <- suppressWarnings(prop.test(cs[1], cs[2], conf.level = cs[3], correct = FALSE))$conf.int
  list(x = cs[1], n = cs[2], level = cs[3], estimate = cs[1] / cs[2], lower = ci[1], upper = ci[2])
})

# ---------------------------------------------------------------- unpaired normal approximation
unpaired_power_r <- function(n1, n2, p1, p2, alpha) {
  z <- qnorm(alpha / 2, lower.tail = FALSE)
  pbar <- (n1 * p1 + n2 * p2) / (n1 + n2)
  se0 <- sqrt(pbar * (1 - pbar) * (1 / n1 + 1 / n2))
  se1 <- sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
  pnorm((abs(p2 - p1) - z * se0) / se1)
}
unpaired_rows <- list()
for (cs in list(c(100, 0.5, 0.7), c(50, 0.2, 0.3), c(200, 0.9, 0.75), c(1000, 0.01, 0.02), c(30, 0.5, 0.9),
  c(20, 0.3, 0.3), c(100000, 0.5, 0.505), c(60, 0, 0.15), c(400, 0.85, 0.8))) {
  n <- cs[1]; p1 <- cs[2]; p2 <- cs[3]
  for (alpha in c(0.05, 0.01)) {
    unpaired_rows[[length(unpaired_rows) + 1]] <- list(n1 = n, n2 = n, p1 = p1, p2 = p2, alpha = alpha,
      power = power.prop.test(n = n, p1 = p1, p2 = p2, sig.level = alpha)$power, source = "power.prop.test")
  }
}
for (cs in list(c(40, 60, 0.3, 0.5), c(100, 20, 0.6, 0.9), c(8, 8, 0.5, 1), c(500, 700, 0.05, 0.03),
  c(10, 1000, 0.2, 0.4), c(75, 25, 0.95, 0.7))) {
  unpaired_rows[[length(unpaired_rows) + 1]] <- list(n1 = cs[1], n2 = cs[2], p1 = cs[3], p2 = cs[4],
    alpha = 0.05, power = unpaired_power_r(cs[1], cs[2], cs[3], cs[4], 0.05), source = "formula")
}
unpaired_mde_rows <- list()
for (cs in list(c(100, 0.5), c(50, 0.2), c(1000, 0.9), c(20, 0.1), c(500, 0.5))) {
  n <- cs[1]; p1 <- cs[2]
  for (alpha in c(0.05, 0.05 / 12)) {
    p2 <- power.prop.test(n = n, p1 = p1, power = 0.8, sig.level = alpha, tol = 1e-14)$p2
    unpaired_mde_rows[[length(unpaired_mde_rows) + 1]] <- list(n1 = n, n2 = n, p1 = p1, alpha = alpha,
      power = 0.8, direction = "rise", mde = if (is.na(p2)) NA else p2 - p1)
  }
}
for (cs in list(c(100, 0.3), c(40, 0.5), c(2000, 0.05), c(60, 0.6))) {
  n <- cs[1]; p1 <- cs[2]
  p2 <- power.prop.test(n = n, p1 = p1, power = 0.9, sig.level = 0.01, tol = 1e-14)$p2
  unpaired_mde_rows[[length(unpaired_mde_rows) + 1]] <- list(n1 = n, n2 = n, p1 = p1, alpha = 0.01,
    power = 0.9, direction = "rise", mde = p2 - p1)
}
# n1 != n2 and falls: uniroot on the formula; Infinity when even a fall to 0 has too little power.
# Each row: n1, n2, p1, alpha, power.
for (cs in list(c(40, 60, 0.7, 0.05, 0.8), c(100, 300, 0.5, 0.05, 0.8), c(200, 200, 0.95, 0.05, 0.8),
  c(50, 50, 0.5, 0.05, 0.9), c(1000, 10, 0.3, 0.05, 0.8), c(30, 30, 0.2, 0.05, 0.8),
  c(500, 80, 0.6, 0.05 / 12, 0.8))) {
  f <- function(d) unpaired_power_r(cs[1], cs[2], cs[3], cs[3] - d, cs[4]) - cs[5]
  mde <- if (f(cs[3]) < 0) Inf else uniroot(f, c(1e-9, cs[3]), tol = 1e-15)$root
  unpaired_mde_rows[[length(unpaired_mde_rows) + 1]] <- list(n1 = cs[1], n2 = cs[2], p1 = cs[3], alpha = cs[4],
    power = cs[5], direction = "fall", mde = mde)
}

# ---------------------------------------------------------------- normal distribution
qp <- c(1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 0.001, 0.01, 0.02, 0.02425, 0.025, 0.05, 0.1, 0.2, 0.3,
  0.4, 0.45, 0.49, 0.5, 0.51, 0.6, 0.75, 0.9, 0.975, 0.99, 0.999, 0.999999)
chi <- c(0, 1e-8, 0.01, 0.5, 1, 2, 3.84, 4.5, 10, 50, 200, 1000, 1400)
normal <- list(p = vec(qp), qnorm = vec(qnorm(qp)),
  x = vec(chi), chisqUpper = vec(pchisq(chi, 1, lower.tail = FALSE)))

out <- list(
  generator = "gen.R", rVersion = R.version.string,
  mcnemar = mcnemar_rows, tango = tango_rows, padjust = padjust_rows,
  critical = critical_rows, power = power_rows, mde = mde_rows,
  fisher = fisher_rows, newcombe = newcombe_rows, wilson = wilson_rows,
  unpairedPower = unpaired_rows, unpairedMde = unpaired_mde_rows, normal = normal)
writeLines(to_json(out), "r-reference.json")
cat("wrote r-reference.json\n")
