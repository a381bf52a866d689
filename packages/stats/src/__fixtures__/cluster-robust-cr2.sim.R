# The level of the pooled cluster-robust t test under no change, CR1 on G - 1 df against CR2 on
# Bell-McCaffrey df (the formulas of cluster-robust.ts, written out), for a few clusters of unequal size.
# Score differences of two independent scores rounded to 0.1; 4,000 runs per design, seed 1.
# Run: Rscript cluster-robust-cr2.sim.R   (fifth session of 2026-12-05, R 4.2.2) printed:
#   10,80  CR1: 0.0795  CR2-BM: 0.0495  df: 1
#   10,80,80  CR1: 0.075  CR2-BM: 0.01975  df: 1.25
#   10,80,80,80  CR1: 0.071  CR2-BM: 0.04225  df: 2.24
#   40,40  CR1: 0.04875  CR2-BM: 0.04875  df: 1
#   40,40,40  CR1: 0.0455  CR2-BM: 0.0455  df: 2
set.seed(1)
sim <- function(sizes, reps=4000) {
  cl <- rep(seq_along(sizes), sizes); N <- length(cl); G <- length(sizes)
  ng <- sizes; c2 <- 1/(N^2*(1-ng/N))
  M <- outer(seq_len(G), seq_len(G), function(g,h) c2[g]*c2[h]*((g==h)*ng[g] - ng[g]*ng[h]/N)^2)
  df2 <- (1/N)^2 / sum(M)
  r1 <- 0; r2 <- 0
  for (i in 1:reps) {
    # score differences: difference of two independent uniform-ish scores with a cluster effect of 0
    x <- round(runif(N),1) - round(runif(N),1)
    e <- x - mean(x); sg <- tapply(e, cl, sum)
    v1 <- G/(G-1) * sum(sg^2)/N^2; v2 <- sum(sg^2/(N^2*(1-ng/N)))
    p1 <- 2*pt(-abs(mean(x)/sqrt(v1)), G-1); p2 <- 2*pt(-abs(mean(x)/sqrt(v2)), df2)
    r1 <- r1 + (p1 <= 0.05); r2 <- r2 + (p2 <= 0.05)
  }
  cat(paste(sizes, collapse=","), " CR1:", r1/reps, " CR2-BM:", r2/reps, " df:", round(df2,2), "\n")
}
sim(c(10,80)); sim(c(10,80,80)); sim(c(10,80,80,80)); sim(c(40,40)); sim(c(40,40,40))
