# Reference values for sequential-mcnemar.ts and clustered-mcnemar.ts, from base R only.
# Run from this directory:  Rscript sequential-clustered.gen.R  -> writes sequential-clustered.json.
#
# eprocess   E_k = 2^k beta(R_k + 1/2, F_k + 1/2) / beta(1/2, 1/2) by R's beta() while it is finite
#            (k <= 1000), and by exp(k log 2 + lbeta(R + 1/2, F + 1/2) - lbeta(1/2, 1/2)) beyond;
#            p_k = min(1, 1 / max_{j<=k} E_j). Sequences from rbinom with set.seed.
# critical   c_k = the largest c with E(c, k - c) >= 1/alpha, found by scanning c = 0, 1, ... with lbeta
#            (not the bisection of the TypeScript code).
# power      sum_k dbinom(k, n, psi) (pbinom(c_k, k, r) + pbinom(k - c_k - 1, k, r, lower.tail = FALSE)),
#            psi = max(discordance, d), r = (psi + d) / (2 psi); the MDE by bisection to 1e-12.
# clustered  random clustered paired tables: Durkalski et al. (2003) eq. 4 from per-cluster b_k, c_k;
#            Obuchowski (1998) written with the marginal proportions p1 = sum x_k1 / N, p2 = sum x_k2 / N,
#            var(p1) + var(p2) - 2 cov(p1, p2) with var(p_j) = K / ((K - 1) N^2) sum_k (x_kj - n_k p_j)^2;
#            the CR1 interval on mean(D) from the sandwich written out (meat over clusters, G / (G - 1),
#            qt on G - 1 df); singleton clusters also against mcnemar.test(correct = FALSE).

options(digits = 17)
num <- function(x) {
  if (is.na(x)) return("null")
  if (is.infinite(x)) return(if (x > 0) "\"Infinity\"" else "\"-Infinity\"")
  sprintf("%.17g", x)
}
arr <- function(x) paste0("[", paste(vapply(x, num, ""), collapse = ", "), "]")
obj <- function(...) {
  v <- list(...)
  paste0("{", paste(sprintf("\"%s\": %s", names(v), unlist(v)), collapse = ", "), "}")
}

set.seed(20261203)

# ------------------------------------------------------------------ e-process
e_of <- function(R, F) {
  k <- R + F
  if (k <= 1000) 2^k * beta(R + 0.5, F + 0.5) / beta(0.5, 0.5)
  else exp(k * log(2) + lbeta(R + 0.5, F + 0.5) - lbeta(0.5, 0.5))
}
seqs <- list()
lens <- c(0, 1, 2, 3, 5, 8, 13, 20, 32, 50, 64, 80, 100, 128, 150, 200, 256, 300, 400, 600, 1000, 1500)
shares <- c(0.5, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 0.3, 0.5, 0.65, 0.75, 0.5, 0.55, 0.85, 0.2, 0.5, 0.6, 0.52, 0.5, 0.58, 0.5, 0.54)
for (i in seq_along(lens)) {
  x <- rbinom(lens[i], 1, shares[i])
  R <- cumsum(x); F <- seq_along(x) - R
  E <- if (length(x) == 0) numeric(0) else mapply(e_of, R, F)
  logE <- if (length(x) == 0) numeric(0) else seq_along(x) * log(2) + lbeta(R + 0.5, F + 0.5) - lbeta(0.5, 0.5)
  p <- if (length(x) == 0) numeric(0) else pmin(1, 1 / pmax(1, cummax(E)))
  seqs[[i]] <- obj(x = arr(x), e = arr(E), logE = arr(logE), p = arr(p))
}

# ------------------------------------------------------------------ rejection region and power
crit <- function(n, alpha) {
  sapply(0:n, function(k) {
    c <- -1
    j <- 0
    while (j <= (k - 1) / 2 && (k * log(2) + lbeta(j + 0.5, k - j + 0.5) - lbeta(0.5, 0.5)) >= -log(alpha)) { c <- j; j <- j + 1 }
    c
  })
}
pow <- function(n, d, disc, alpha, cc) {
  psi <- max(disc, d)
  if (psi <= 0) return(0)  # no discordant pair: nothing to reject on (with d = 0 < disc, the test's size)
  r <- min(1, (psi + d) / (2 * psi))
  tot <- 0
  for (k in 1:n) {
    ck <- cc[k + 1]
    if (ck < 0) next
    rej <- if (r >= 1) 1 else pbinom(ck, k, r) + pbinom(k - ck - 1, k, r, lower.tail = FALSE)
    tot <- tot + dbinom(k, n, psi) * rej
  }
  min(1, tot)
}
critical <- list(); power <- list(); mde <- list()
for (cfg in list(c(8, 0.05), c(32, 0.05), c(64, 0.0125), c(128, 0.05), c(200, 0.01), c(1000, 0.05))) {
  n <- cfg[1]; alpha <- cfg[2]
  cc <- crit(n, alpha)
  critical[[length(critical) + 1]] <- obj(n = num(n), alpha = num(alpha), c = arr(cc))
}
for (cfg in list(c(8, 0.05, 0, 0.9), c(32, 0.05, 0, 0.3), c(64, 0.05, 0.3, 0.2), c(64, 0.0125, 0.3, 0.25),
                 c(128, 0.05, 0.5, 0.2), c(200, 0.05, 0.5, 0.15), c(100, 0.01, 0.1, 0.12), c(50, 0.05, 0.4, 0.05),
                 # no change: the chance of rejecting when nothing changed (0 when no pair is discordant)
                 c(60, 0.01, 1, 0), c(37, 0.01, 0.42, 0), c(200, 0.05, 0.3, 0), c(40, 0.05, 0, 0))) {
  n <- cfg[1]; alpha <- cfg[2]; disc <- cfg[3]; d <- cfg[4]
  power[[length(power) + 1]] <- obj(n = num(n), alpha = num(alpha), discordance = num(disc), change = num(d), power = num(pow(n, d, disc, alpha, crit(n, alpha))))
}
for (cfg in list(c(8, 0.05, 0, 0.8), c(32, 0.05, 0, 0.8), c(64, 0.05, 0.3, 0.8), c(128, 0.0125, 0, 0.8),
                 c(200, 0.05, 0.5, 0.8), c(5, 0.05, 0, 0.8), c(100, 0.05, 0.2, 0.9))) {
  n <- cfg[1]; alpha <- cfg[2]; disc <- cfg[3]; target <- cfg[4]
  cc <- crit(n, alpha)
  m <- if (pow(n, 1, disc, alpha, cc) < target) Inf else {
    lo <- 0; hi <- 1
    while (hi - lo > 1e-12) { mid <- (lo + hi) / 2; if (pow(n, mid, disc, alpha, cc) >= target) hi <- mid else lo <- mid }
    hi
  }
  mde[[length(mde) + 1]] <- obj(n = num(n), alpha = num(alpha), discordance = num(disc), power = num(target), mde = num(m))
}

# ------------------------------------------------------------------ clustered tables
clustered <- list()
make_table <- function(K, maxn, base, shift, icc, singleton = FALSE) {
  out <- NULL
  for (k in 1:K) {
    nk <- if (singleton) 1 else sample(1:maxn, 1)
    u <- rnorm(1, 0, icc)
    p1 <- plogis(qlogis(base) + u); p2 <- plogis(qlogis(base) + u + shift + rnorm(1, 0, icc / 2))
    x1 <- rbinom(nk, 1, p1); x2 <- rbinom(nk, 1, p2)
    out <- rbind(out, c(both = sum(x1 == 1 & x2 == 1), fall = sum(x1 == 1 & x2 == 0), rise = sum(x1 == 0 & x2 == 1), neither = sum(x1 == 0 & x2 == 0)))
  }
  out
}
cases <- list()
for (i in 1:24) cases[[i]] <- make_table(sample(2:15, 1), sample(c(2, 4, 8, 12), 1), runif(1, 0.2, 0.8), rnorm(1, 0, 0.8), runif(1, 0.2, 1.5))
for (i in 1:4) cases[[length(cases) + 1]] <- make_table(sample(10:40, 1), 1, runif(1, 0.3, 0.7), rnorm(1, 0, 0.8), 0.5, singleton = TRUE)
for (tab in cases) {
  b <- tab[, "rise"]; c <- tab[, "fall"]; nk <- rowSums(tab)
  keep <- nk > 0; tab <- tab[keep, , drop = FALSE]; b <- b[keep]; c <- c[keep]; nk <- nk[keep]
  K <- nrow(tab); N <- sum(nk)
  u <- (b - c) / nk
  durk <- if (sum(u^2) == 0) 0 else sum(u)^2 / sum(u^2)
  x1 <- tab[, "both"] + tab[, "fall"]; x2 <- tab[, "both"] + tab[, "rise"]
  p1 <- sum(x1) / N; p2 <- sum(x2) / N
  f <- K / ((K - 1) * N^2)
  v1 <- f * sum((x1 - nk * p1)^2); v2 <- f * sum((x2 - nk * p2)^2); cv <- f * sum((x1 - nk * p1) * (x2 - nk * p2))
  obu <- if (v1 + v2 - 2 * cv <= 0) (if (p2 == p1) 0 else Inf) else (p2 - p1)^2 / (v1 + v2 - 2 * cv)
  # CR1 on D, with the observations written out
  D <- unlist(lapply(seq_len(K), function(k) c(rep(1, b[k]), rep(-1, c[k]), rep(0, nk[k] - b[k] - c[k]))))
  g <- unlist(lapply(seq_len(K), function(k) rep(k, nk[k])))
  m <- mean(D); meat <- sum(tapply(D - m, g, sum)^2)
  se <- sqrt(K / (K - 1) * meat / N^2)
  q <- qt(0.975, K - 1)
  mc <- if (sum(b + c) == 0) NA else unname(mcnemar.test(matrix(c(sum(tab[, "both"]), sum(b), sum(c), sum(tab[, "neither"])), 2), correct = FALSE)$statistic)
  clustered[[length(clustered) + 1]] <- paste0("{\"tables\": [",
    paste(apply(tab, 1, function(r) obj(both = num(r["both"]), fall = num(r["fall"]), rise = num(r["rise"]), neither = num(r["neither"]))), collapse = ", "),
    "], ", sprintf("\"durkalski\": %s, \"durkalskiP\": %s, \"obuchowski\": %s, \"obuchowskiP\": %s, \"change\": %s, \"se\": %s, \"lower\": %s, \"upper\": %s, \"mcnemarIid\": %s, \"singleton\": %s}",
    num(durk), num(if (sum(b + c) == 0) 1 else pchisq(durk, 1, lower.tail = FALSE)), num(obu), num(if (sum(b + c) == 0) 1 else pchisq(obu, 1, lower.tail = FALSE)),
    num(m), num(se), num(if (se == 0) m else m - q * se), num(if (se == 0) m else m + q * se), num(mc), if (all(nk == 1)) "true" else "false"))
}

cat(paste0("{\"rVersion\": \"", R.version.string, "\",\n\"eprocess\": [", paste(unlist(seqs), collapse = ",\n"),
  "],\n\"critical\": [", paste(unlist(critical), collapse = ",\n"),
  "],\n\"power\": [", paste(unlist(power), collapse = ",\n"),
  "],\n\"mde\": [", paste(unlist(mde), collapse = ",\n"),
  "],\n\"clustered\": [", paste(unlist(clustered), collapse = ",\n"), "]}\n"), file = "sequential-clustered.json")
