# Reference values for cluster-robust.ts's CR2 standard errors with Bell-McCaffrey (Satterthwaite)
# degrees of freedom, from R's clubSandwich (Pustejovsky & Tipton 2018), Debian's r-cran-clubsandwich.
# Run from this directory:  Rscript cluster-robust-cr2.gen.R   -> writes cluster-robust-cr2.json.
#
# For each case: fit <- lm(x ~ 1) of the values (or of after - before), V <- vcovCR(fit, cluster, type = "CR2"),
# coef_test(fit, vcov = V, test = "Satterthwaite") for SE, t, df, p, and conf_int(..., level) for the interval.
# "tables": the same for the paired differences D (+1 rise, -1 fall, 0 otherwise) of each clustered case of
# sequential-clustered.json (clustered-mcnemar.ts's interval), at level 0.95; read with jsonlite.
suppressMessages(library(clubSandwich))
options(digits = 17)
num <- function(x) sprintf("%.17g", x)
vec <- function(x) paste0("[", paste(sapply(x, num), collapse = ", "), "]")
strvec <- function(x) paste0("[", paste(sprintf("\"%s\"", x), collapse = ", "), "]")
obj <- function(...) { kv <- list(...); paste0("{", paste(sprintf("\"%s\": %s", names(kv), unlist(kv)), collapse = ", "), "}") }

set.seed(20261205)
sizes_review <- c(2, 16, 16)  # one small cluster beside large ones (the design CR1 over-rejects on)
cases <- list(
  list(name = "two_clusters", before = c(0.5, 0.6, 0.7, 0.2), after = c(0.6, 0.9, 0.6, 0.6), clusters = c("t1", "t1", "t2", "t2"), level = 0.95),
  list(name = "sizes_2_3_4", before = rep(0, 9), after = c(0.1, 0.2, -0.1, 0.4, 0.3, 0.0, 0.25, -0.2, 0.5), clusters = c("a", "a", "b", "b", "b", "c", "c", "c", "c"), level = 0.95),
  list(name = "uneven_binary", before = rbinom(25, 1, 0.6), after = rbinom(25, 1, 0.7), clusters = c(rep("a", 2), rep("b", 7), rep("c", 3), rep("d", 9), rep("e", 4)), level = 0.9),
  list(name = "one_small_two_large", before = round(runif(34), 2), after = round(runif(34), 2), clusters = rep(c("small", "big1", "big2"), times = sizes_review), level = 0.95),
  list(name = "singletons", before = rep(0, 5), after = c(0.1, 0.5, 0.2, 0.9, 0.4), clusters = c("p", "q", "r", "s", "t"), level = 0.99),
  list(name = "balanced_four", before = round(runif(12), 3), after = round(runif(12), 3), clusters = rep(c("w", "x", "y", "z"), each = 3), level = 0.95)
)
json <- sapply(cases, function(cs) {
  x <- cs$after - cs$before
  fit <- lm(x ~ 1)
  V <- vcovCR(fit, cluster = cs$clusters, type = "CR2")
  ct <- coef_test(fit, vcov = V, test = "Satterthwaite")
  ci <- conf_int(fit, vcov = V, level = cs$level, test = "Satterthwaite")
  obj(name = sprintf("\"%s\"", cs$name), before = vec(cs$before), after = vec(cs$after), clusters = strvec(cs$clusters),
      level = num(cs$level), mean = num(ct$beta), se = num(ct$SE), statistic = num(ct$tstat), df = num(ct$df_Satt),
      p_value = num(ct$p_Satt), lower = num(ci$CI_L), upper = num(ci$CI_U), G = length(unique(cs$clusters)))
})
tables_json <- sapply(jsonlite::fromJSON("sequential-clustered.json", simplifyVector = FALSE)$clustered, function(cs) {
  d <- c(); g <- c()
  for (k in seq_along(cs$tables)) {
    t <- cs$tables[[k]]
    d <- c(d, rep(1, t$rise), rep(-1, t$fall), rep(0, t$both + t$neither)); g <- c(g, rep(k, t$rise + t$fall + t$both + t$neither))
  }
  fit <- lm(d ~ 1)
  V <- vcovCR(fit, cluster = g, type = "CR2")
  ct <- coef_test(fit, vcov = V, test = "Satterthwaite")
  ci <- conf_int(fit, vcov = V, level = 0.95, test = "Satterthwaite")
  se <- ct$SE
  # Clusters whose means all agree (SE 0): clubSandwich's df is NaN there; the interval is the point.
  obj(se = num(se), df = if (is.finite(ct$df_Satt)) num(ct$df_Satt) else "null",
      lower = num(if (se < 1e-12) ct$beta else ci$CI_L), upper = num(if (se < 1e-12) ct$beta else ci$CI_U))
})
out <- paste0("{\n\"source\": \"R ", R.version$major, ".", R.version$minor, ", clubSandwich ", packageVersion("clubSandwich"),
  ": vcovCR(lm(x ~ 1), cluster, type = 'CR2'), coef_test and conf_int with test = 'Satterthwaite' (see cluster-robust-cr2.gen.R)\",\n",
  "\"cases\": [", paste(json, collapse = ",\n"), "],\n",
  "\"tables\": [", paste(tables_json, collapse = ",\n"), "]\n}\n")
writeLines(out, "cluster-robust-cr2.json", sep = "")
