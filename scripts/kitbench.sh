#!/bin/sh
# The collection stack's figures (docs/performance.md, "Collection stack"): enqueue latency on
# the caller, durable throughput, and peak RSS with 1,000,000 events queued offline.
# Each figure runs in a process of its own so the peak RSS is the memory run's alone.
set -eu
cd "$(dirname "$0")/../Benchmarks/KitBench"
swift build -c release >/dev/null
.build/release/KitBench latency 1000000
.build/release/KitBench throughput 1000000
.build/release/KitBench memory 1000000
