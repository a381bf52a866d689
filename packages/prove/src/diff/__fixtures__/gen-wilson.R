# Reference values for wilson.test.ts: Wilson's score interval, as R's prop.test without continuity
# correction reports it. Run: Rscript gen-wilson.R > wilson.json
cases <- list(c(0, 8, 0.95), c(8, 8, 0.95), c(3, 8, 0.95), c(1, 1, 0.95), c(17, 32, 0.95),
              c(5, 128, 0.95), c(127, 128, 0.99), c(40, 100, 0.9), c(0, 1000, 0.95), c(999, 1000, 0.95))
out <- lapply(cases, function(cs) {
  x <- cs[1]; n <- cs[2]; level <- cs[3]
  ci <- suppressWarnings(prop.test(x, n, conf.level = level, correct = FALSE)$conf.int)
  sprintf('{"x": %d, "n": %d, "level": %s, "lower": %.16g, "upper": %.16g}', x, n, format(level), ci[1], ci[2])
})
cat("[\n", paste(unlist(out), collapse = ",\n"), "\n]\n", sep = "")
