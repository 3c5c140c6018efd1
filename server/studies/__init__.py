"""Human-evaluation studies: build, assign, rate, aggregate (see docs/studies.md)."""
