"""The load benchmark: a bench-only sealed-bid game and a bounded, loopback-only load generator."""
