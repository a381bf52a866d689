# The exact rate at which the diff's rule reads one condition of two runs that are not paired `unchanged`
# where the true change is the threshold, for unpaired-small-sample.test.ts, computed without the
# package's code: every table (x of N1 before, y of N2 after) read with R's fisher.test (two-sided),
# Newcombe's hybrid score interval (method 10, from Wilson's score intervals, 95%) for after - before, and
# the unpaired limit (the smallest change whose exact power of that Fisher test at alpha 0.05 reaches 0.8:
# d scanned by 0.005 up to the room, the first grid point reaching it refined by bisection to 1e-9, rounded
# to 3 significant digits, "no room" past the room; the condition's limit the larger of the two directions
# when both are numbers). A table reads `unchanged` at threshold t when p > 0.05 and
# max(limit, -lower, upper) <= t. The rate is the supremum over the before rate p0 of
# sum dbinom(x, N1, p0) dbinom(y, N2, p0 +- t) over those tables: a grid of 4001 points each way, then
# optimize() around the best. Run: Rscript gen-unpaired-small-sample.R > unpaired-small-sample.json
cases <- list(c(14, 22, 0.5492363), c(26, 4, 0.662010), c(4, 3000, 0.7), c(400, 4, 0.4873952))
z <- qnorm(0.975)
wilson <- function(x, n) {
  p <- x / n; centre <- (p + z^2 / (2 * n)) / (1 + z^2 / n)
  half <- z * sqrt(p * (1 - p) / n + z^2 / (4 * n^2)) / (1 + z^2 / n)
  c(centre - half, centre + half)
}
newcombe <- function(x1, n1, x2, n2) { # interval for x2/n2 - x1/n1
  p1 <- x1 / n1; p2 <- x2 / n2; w1 <- wilson(x1, n1); w2 <- wilson(x2, n2)
  c(p2 - p1 - sqrt((p2 - w2[1])^2 + (w1[2] - p1)^2), p2 - p1 + sqrt((w2[2] - p2)^2 + (p1 - w1[1])^2))
}
rate_of <- function(N1, N2, t) {
  grid <- expand.grid(x = 0:N1, y = 0:N2)
  grid$p <- mapply(function(x, y) fisher.test(matrix(c(x, N1 - x, y, N2 - y), 2))$p.value, grid$x, grid$y)
  reject <- grid[grid$p <= 0.05, ]
  power <- function(p0, p1) sum(dbinom(reject$x, N1, p0) * dbinom(reject$y, N2, p1))
  mde <- function(p0, dir) {
    room <- if (dir > 0) 1 - p0 else p0
    reaches <- function(d) power(p0, min(1, max(0, p0 + dir * d))) >= 0.8
    prev <- 0; i <- 1
    repeat {
      d <- min(room, i * 0.005)
      if (reaches(d)) {
        lo <- prev; hi <- d
        while (hi - lo > 1e-9) { mid <- (lo + hi) / 2; if (reaches(mid)) hi <- mid else lo <- mid }
        return(hi)
      }
      if (d >= room) return(Inf)
      prev <- d; i <- i + 1
    }
  }
  limit <- sapply(0:N1, function(x) {
    p0 <- x / N1
    one <- function(dir) {
      room <- if (dir > 0) 1 - p0 else p0
      if (!(room > 1e-12)) return(NA)
      d <- signif(mde(p0, dir), 3)
      if (is.finite(d) && d <= room + 1e-12) d else NA
    }
    r <- one(1); f <- one(-1)
    if (is.na(r) && is.na(f)) NA else max(r, f, na.rm = TRUE)
  })
  grid$limit <- limit[grid$x + 1]
  ends <- t(mapply(function(x, y) newcombe(x, N1, y, N2), grid$x, grid$y))
  grid$tau <- pmax(grid$limit, -ends[, 1], ends[, 2])
  s <- grid[grid$p > 0.05 & !is.na(grid$tau) & grid$tau <= t, ]
  r <- function(p0, p1) sum(dbinom(s$x, N1, p0) * dbinom(s$y, N2, p1))
  best <- list(rate = -1); grid65 <- list()
  for (dir in c(1, -1)) {
    f <- function(low) if (dir > 0) r(low, low + t) else r(low + t, low)
    g <- seq(0, 1 - t, length.out = 4001); v <- sapply(g, f); i <- which.max(v)
    o <- optimize(function(l) -f(l), c(g[max(1, i - 1)], g[min(length(g), i + 1)]), tol = 1e-12)
    if (-o$objective > best$rate) best <- list(rate = -o$objective, before = if (dir > 0) o$minimum else o$minimum + t, direction = if (dir > 0) "rise" else "fall")
    g65 <- (1 - t) * (0:64) / 64
    grid65[[paste0("grid65_", if (dir > 0) "rise" else "fall")]] <- max(sapply(g65, f))
  }
  c(list(before_n = N1, after_n = N2, threshold = t, tables_unchanged = nrow(s)), best, grid65)
}
out <- lapply(cases, function(k) {
  r <- rate_of(k[1], k[2], k[3])
  sprintf('{"before_n": %d, "after_n": %d, "threshold": %.16g, "tables_unchanged": %d, "rate": %.16g, "before_rate": %.16g, "direction": "%s", "grid65_rise": %.16g, "grid65_fall": %.16g}',
          r$before_n, r$after_n, r$threshold, r$tables_unchanged, r$rate, r$before, r$direction, r$grid65_rise, r$grid65_fall)
})
cat("[\n", paste(unlist(out), collapse = ",\n"), "\n]\n", sep = "")
