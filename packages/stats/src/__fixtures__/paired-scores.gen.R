# Reference values for paired-scores.ts and cluster-robust.ts, from R (stats package only).
# Run from this directory:  Rscript paired-scores.gen.R   -> writes paired-scores.json (17 significant digits).
#
# Sources:
#   paired   R's t.test(after, before, paired = TRUE): estimate, statistic, parameter (df), p.value, conf.int
#   mean     R's t.test(x): estimate, conf.int
#   cluster  the sandwich (cluster-robust) variance of an intercept-only OLS written out by hand:
#            u = x - mean(x); V_CR0 = sum_g (sum_{i in g} u_i)^2 / n^2; V_CR1 = G/(G-1) * (n-1)/(n-k) * V_CR0, k = 1;
#            interval mean +- qt((1+level)/2, G-1) * sqrt(V_CR1); p = 2 * pt(-|t|, G-1)
#            (cross-checked by cluster-robust.gen.py with statsmodels OLS cov_type='cluster').
#   t        R's qt / pt for the Student t helpers.
options(digits = 17)
num <- function(x) if (is.infinite(x)) (if (x > 0) "\"Infinity\"" else "\"-Infinity\"") else sprintf("%.17g", x)
vec <- function(x) paste0("[", paste(sapply(x, num), collapse = ", "), "]")
strvec <- function(x) paste0("[", paste(sprintf("\"%s\"", x), collapse = ", "), "]")
obj <- function(...) { kv <- list(...); paste0("{", paste(sprintf("\"%s\": %s", names(kv), unlist(kv)), collapse = ", "), "}") }

set.seed(20261202)
paired_cases <- list(
  list(name = "small", before = c(0.5, 0.7, 0.6, 0.4, 0.9), after = c(0.6, 0.9, 0.6, 0.7, 0.8), level = 0.95),
  list(name = "normal_n30", before = round(rnorm(30, 0.6, 0.15), 6), after = round(rnorm(30, 0.65, 0.15), 6), level = 0.95),
  list(name = "binary_n40_level90", before = rbinom(40, 1, 0.55), after = rbinom(40, 1, 0.7), level = 0.90),
  list(name = "n2", before = c(0.1, 0.4), after = c(0.3, 0.35), level = 0.99)
)
paired_json <- sapply(paired_cases, function(cs) {
  r <- t.test(cs$after, cs$before, paired = TRUE, conf.level = cs$level)
  obj(name = sprintf("\"%s\"", cs$name), before = vec(cs$before), after = vec(cs$after), level = num(cs$level),
      mean_difference = num(unname(r$estimate)), statistic = num(unname(r$statistic)), df = num(unname(r$parameter)),
      p_value = num(r$p.value), lower = num(r$conf.int[1]), upper = num(r$conf.int[2]),
      se = num(unname(r$stderr)))
})

mean_cases <- list(list(name = "three", x = c(0.5, 0.75, 1), level = 0.95), list(name = "n12", x = round(runif(12), 6), level = 0.8))
mean_json <- sapply(mean_cases, function(cs) {
  r <- t.test(cs$x, conf.level = cs$level)
  obj(name = sprintf("\"%s\"", cs$name), x = vec(cs$x), level = num(cs$level), mean = num(unname(r$estimate)),
      lower = num(r$conf.int[1]), upper = num(r$conf.int[2]))
})

cluster_by_hand <- function(x, g, level) {
  n <- length(x); k <- 1; G <- length(unique(g))
  u <- x - mean(x)
  meat <- sum(tapply(u, g, sum)^2)
  v0 <- meat / n^2
  v1 <- G / (G - 1) * (n - 1) / (n - k) * v0
  se <- sqrt(v1); t <- mean(x) / se; q <- qt((1 + level) / 2, G - 1)
  list(mean = mean(x), se = se, se_cr0 = sqrt(v0), df = G - 1, statistic = t, p = 2 * pt(-abs(t), G - 1),
       lower = mean(x) - q * se, upper = mean(x) + q * se, G = G)
}
tasks6 <- rep(sprintf("task_%d", 1:6), times = c(5, 5, 5, 5, 5, 5))
b6 <- round(pmin(1, pmax(0, rnorm(30, rep(c(0.3, 0.5, 0.6, 0.7, 0.8, 0.9), each = 5), 0.1))), 6)
a6 <- round(pmin(1, pmax(0, b6 + rnorm(30, rep(c(0.2, -0.05, 0.1, 0.0, 0.15, 0.05), each = 5), 0.08))), 6)
tasks_uneven <- c(rep("a", 2), rep("b", 7), rep("c", 3), rep("d", 9), rep("e", 4))
b_uneven <- rbinom(25, 1, 0.6); a_uneven <- rbinom(25, 1, 0.7)
cluster_cases <- list(
  list(name = "six_tasks", before = b6, after = a6, clusters = tasks6, level = 0.95),
  list(name = "uneven_binary", before = b_uneven, after = a_uneven, clusters = tasks_uneven, level = 0.9),
  list(name = "two_clusters", before = c(0.5, 0.6, 0.7, 0.2), after = c(0.6, 0.9, 0.6, 0.6), clusters = c("t1", "t1", "t2", "t2"), level = 0.95)
)
cluster_json <- sapply(cluster_cases, function(cs) {
  r <- cluster_by_hand(cs$after - cs$before, cs$clusters, cs$level)
  obj(name = sprintf("\"%s\"", cs$name), before = vec(cs$before), after = vec(cs$after), clusters = strvec(cs$clusters),
      level = num(cs$level), mean = num(r$mean), se = num(r$se), se_cr0 = num(r$se_cr0), df = num(r$df),
      statistic = num(r$statistic), p_value = num(r$p), lower = num(r$lower), upper = num(r$upper), G = num(r$G))
})

t_cases <- list(c(0.975, 1), c(0.975, 4), c(0.95, 29), c(0.9995, 2), c(0.6, 7.5), c(0.999999, 3))
t_json <- sapply(t_cases, function(cs) obj(p = num(cs[1]), df = num(cs[2]), q = num(qt(cs[1], cs[2])),
                                             cdf_at_1_3 = num(pt(1.3, cs[2])), cdf_at_m4 = num(pt(-4, cs[2]))))

out <- paste0("{\n",
  "\"source\": \"R ", R.version$major, ".", R.version$minor, ": t.test, qt, pt; cluster-robust sandwich by hand (see paired-scores.gen.R)\",\n",
  "\"paired\": [", paste(paired_json, collapse = ",\n"), "],\n",
  "\"mean\": [", paste(mean_json, collapse = ",\n"), "],\n",
  "\"cluster\": [", paste(cluster_json, collapse = ",\n"), "],\n",
  "\"t\": [", paste(t_json, collapse = ",\n"), "]\n}\n")
writeLines(out, "paired-scores.json")
