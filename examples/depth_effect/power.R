# The figures examples/depth_effect/README.md quotes: the exact power of the diff's paired test (McNemar,
# exact conditional, two-sided, alpha = q/m = 0.05 / 1) for the example's design, summed over the number
# of discordant pairs k:
#   P(reject) = sum_k dbinom(k, n, psi) * sum_{x in R(k)} dbinom(x, k, theta),
# R(k) = the x with binom.test(x, k, 0.5)$p.value <= alpha (the test actually applied).
# Depth d fails with probability P_d = 1 - (1 - e)^d, independently per arm (the policy's draws are keyed
# by the arm), so a pair (d1, dK) is discordant with probability psi = P_1 (1 - P_K) + P_K (1 - P_1) and
# goes toward dK failing with probability theta = P_K (1 - P_1) / psi.
# Usage: Rscript examples/depth_effect/power.R
rejects <- function(k, theta, alpha) {
  if (k == 0) return(0)
  x <- 0:k
  r <- vapply(x, function(i) binom.test(i, k, 0.5)$p.value <= alpha, logical(1))
  sum(dbinom(x, k, theta)[r])
}
power <- function(n, p1, p2, alpha) {
  psi <- p1 * (1 - p2) + p2 * (1 - p1)
  theta <- p2 * (1 - p1) / psi
  sum(vapply(0:n, function(k) dbinom(k, n, psi) * rejects(k, theta, alpha), numeric(1)))
}
e <- 0.15; n <- 200; alpha <- 0.05
p1 <- 1 - (1 - e)^1; p3 <- 1 - (1 - e)^3
cat(sprintf("P(fail): d1 %.4f, d3 %.4f, d1+h3 %.4f\n", p1, p3, p1))
cat(sprintf("d1 vs d3:    P(significant change) = %.6f\n", power(n, p1, p3, alpha)))
cat(sprintf("d1 vs d1+h3: P(significant change) = %.6f\n", power(n, p1, p1, alpha)))
