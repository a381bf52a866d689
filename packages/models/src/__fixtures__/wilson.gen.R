# Reference Wilson intervals for model-matrix-report.ts, from R's prop.test(correct = FALSE)$conf.int.
# Run from this directory:  Rscript wilson.gen.R   -> writes wilson.json (17 significant digits).
cases <- list(c(0, 5, 0.95), c(5, 5, 0.95), c(17, 55, 0.95), c(3, 10, 0.9), c(40, 41, 0.99))
rows <- sapply(cases, function(cs) {
  ci <- prop.test(cs[1], cs[2], conf.level = cs[3], correct = FALSE)$conf.int
  sprintf('{"k": %d, "n": %d, "level": %.17g, "lower": %.17g, "upper": %.17g}', as.integer(cs[1]), as.integer(cs[2]), cs[3], ci[1], ci[2])
})
writeLines(paste0('{"source": "R prop.test(correct = FALSE)", "cases": [\n', paste(rows, collapse = ",\n"), "\n]}"), "wilson.json")
