# Reference values for score-diff.test.ts: the paired score comparison of two hand-built runs.
# Run: Rscript gen-paired-scores.R > paired-scores.json   (R's t.test, p.adjust, binom.test; clubSandwich for the pooled CR2)
# Inputs (the runs' scores and hard-failure flags) are generated here with a fixed seed and written into
# the JSON, so the test builds its store from exactly these numbers.
set.seed(20261202)
tasks <- c("alpha", "beta", "gamma")
variants <- c("skeptical", "standard")
R <- 6
shift <- c(alpha = 0, beta = 0.05, gamma = 0.3)
q8 <- function(x) pmin(1, pmax(0, round(x * 8) / 8))
g16 <- function(x) if (is.na(x)) "null" else if (is.infinite(x)) (if (x > 0) "\"Infinity\"" else "\"-Infinity\"") else sprintf("%.16g", x)
arr <- function(v) paste0("[", paste(vapply(v, g16, ""), collapse = ", "), "]")
barr <- function(v) paste0("[", paste(ifelse(is.na(v), "null", ifelse(v, "true", "false")), collapse = ", "), "]")

conds <- list()
for (v in variants) for (t in tasks) {
  before <- q8(runif(R, 0.3, 0.8))
  after <- q8(before + shift[[t]] + rnorm(R, 0, 0.12))
  hb <- runif(R) < 0.25
  ha <- runif(R) < ifelse(t == "gamma", 0.05, 0.3)
  conds[[length(conds) + 1]] <- list(task = t, variant = v, before = before, after = after, hb = hb, ha = ha)
}
# Crashes: no score, no hard_failure flag.
conds[[5]]$before[3] <- NA; conds[[5]]$hb[3] <- NA    # standard x beta, replicate 2, before
conds[[4]]$after[6] <- NA; conds[[4]]$ha[6] <- NA     # standard x alpha, replicate 5, after

m <- length(conds)
level <- 1 - 0.05 / m
ps <- numeric(m)
out <- character(0)
for (i in seq_len(m)) {
  c <- conds[[i]]
  ok <- !is.na(c$before) & !is.na(c$after)
  tt <- t.test(c$after[ok], c$before[ok], paired = TRUE, conf.level = level)
  tt95 <- t.test(c$after[ok], c$before[ok], paired = TRUE)
  ps[i] <- tt$p.value
  hok <- !is.na(c$hb) & !is.na(c$ha)
  rise <- sum(!c$hb[hok] & c$ha[hok]); fall <- sum(c$hb[hok] & !c$ha[hok])
  hp <- if (rise + fall == 0) 1 else binom.test(min(rise, fall), rise + fall, 0.5)$p.value
  conds[[i]]$ref <- sprintf(paste0(
    "\"n\": %d, \"mean_before\": %s, \"mean_after\": %s, \"estimate\": %s, \"statistic\": %s, \"df\": %s, ",
    "\"p\": %s, \"lower\": %s, \"upper\": %s, \"lower95\": %s, \"upper95\": %s, ",
    "\"hard\": { \"rise\": %d, \"fall\": %d, \"n\": %d, \"p\": %s }"),
    sum(ok), g16(mean(c$before[ok])), g16(mean(c$after[ok])), g16(unname(tt$estimate)), g16(unname(tt$statistic)),
    g16(unname(tt$parameter)), g16(tt$p.value), g16(tt$conf.int[1]), g16(tt$conf.int[2]), g16(tt95$conf.int[1]),
    g16(tt95$conf.int[2]), rise, fall, sum(hok), g16(hp))
}
ph <- p.adjust(ps, "holm")
pb <- p.adjust(ps, "BH")

# Pooled over every complete pair, CR2 standard errors clustered by task, t on Bell-McCaffrey df (R's
# clubSandwich: vcovCR(lm(d ~ 1), cluster, type = "CR2"), coef_test and conf_int with test = "Satterthwaite");
# and the CR1 standard error by hand, for comparison (the sandwich estimator of an intercept-only
# regression, V = G/(G-1) * sum_g (sum_{i in g} u_i)^2 / n^2).
d <- c(); cl <- c()
for (c in conds) { ok <- !is.na(c$before) & !is.na(c$after); d <- c(d, c$after[ok] - c$before[ok]); cl <- c(cl, rep(c$task, sum(ok))) }
n <- length(d); u <- d - mean(d); G <- length(unique(cl))
meat <- sum(tapply(u, cl, sum)^2)
se1 <- sqrt(G / (G - 1) * meat / n^2)
suppressMessages(library(clubSandwich))
fit <- lm(d ~ 1)
V <- vcovCR(fit, cluster = cl, type = "CR2")
ct <- coef_test(fit, vcov = V, test = "Satterthwaite")
cc <- conf_int(fit, vcov = V, level = 0.95, test = "Satterthwaite")
se <- ct$SE
tp <- ct$tstat
pp <- ct$p_Satt
ci <- c(cc$CI_L, cc$CI_U)

cat("{\n")
cat(sprintf("  \"generator\": \"gen-paired-scores.R (%s)\",\n", R.version.string))
cat(sprintf("  \"replicates\": %d,\n  \"level\": %s,\n", R, g16(level)))
cat("  \"conditions\": [\n")
for (i in seq_len(m)) {
  c <- conds[[i]]
  cat(sprintf("    { \"task\": \"%s\", \"prompt_variant\": \"%s\", \"before\": %s, \"after\": %s, \"hard_before\": %s, \"hard_after\": %s,\n      %s, \"p_holm\": %s, \"p_bh\": %s }%s\n",
    c$task, c$variant, arr(c$before), arr(c$after), barr(c$hb), barr(c$ha), c$ref, g16(ph[i]), g16(pb[i]), if (i < m) "," else ""))
}
cat("  ],\n")
cat(sprintf("  \"pooled\": { \"n\": %d, \"clusters\": %d, \"sizes\": %s, \"difference\": %s, \"standard_error\": %s, \"standard_error_cr1\": %s, \"t\": %s, \"df\": %s, \"p\": %s, \"lower\": %s, \"upper\": %s }\n",
  n, G, arr(as.vector(table(cl))), g16(mean(d)), g16(se), g16(se1), g16(tp), g16(ct$df_Satt), g16(pp), g16(ci[1]), g16(ci[2])))
cat("}\n")
