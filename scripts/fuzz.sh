#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/Targets with AddressSanitizer and runs each one.
#
#   scripts/fuzz.sh [SECONDS_EACH] [TARGET...]     (default 600 s; targets: line batch gzip body)
#
# The targets live outside Package.swift, so `swift build` and `swift test` never see them; this
# script compiles TallyEvents and TallySQLite itself with swiftc into .build-fuzz/. Each run starts
# from the seed corpus in Fuzz/Corpus/<target> plus what earlier runs found (.build-fuzz/corpus);
# crashes are written to .build-fuzz/crash-<target>-*. The last lines of each log are the
# executions and coverage reached (see docs/fuzzing.md).
#
# FUZZ_TIMEOUT (default 60) is the wall-clock seconds one input may take before libFuzzer calls
# it a hang. Units take milliseconds, but a niced fuzzer on a machine busy with builds can be
# starved for tens of seconds; replay a timeout artifact alone before believing it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
unit_timeout=${FUZZ_TIMEOUT:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(line batch gzip body)
out=.build-fuzz
mkdir -p "$out/corpus"
root=$(pwd)

swift_flags=(-swift-version 6 -package-name tally -parse-as-library -g -Onone -sanitize=fuzzer,address
             -I "$out" -Xcc "-fmodule-map-file=$root/Sources/CZlib/module.modulemap")

# The linker's notes about AddressSanitizer's local symbols are noise.
quiet() { "$@" 2> >(grep -v "Cannot export local symbol" >&2); }

if [ -z "$(find Sources/TallyEvents Sources/TallySupport Sources/TallyIngest -newer "$out/libTallyIngest.a" 2>/dev/null)" ] \
    && [ -f "$out/libTallyIngest.a" ]; then
    echo "the fuzz libraries in $out are up to date" >&2
else
echo "building the fuzz libraries in $out" >&2
for module in TallyEvents TallySupport TallyIngest; do
    swiftc "${swift_flags[@]}" -emit-library -static -emit-module -module-name "$module" \
        -emit-module-path "$out/$module.swiftmodule" -o "$out/lib$module.a" $(find "Sources/$module" -name '*.swift')
done
fi

declare -A files=([line]=LineValidator [batch]=BatchSplitter [gzip]=GzipReader [body]=WriteBody)
for target in "${targets[@]}"; do
    source=Fuzz/Targets/${files[$target]:?unknown target $target}.swift
    quiet swiftc "${swift_flags[@]}" -module-name "Fuzz_$target" "$source" -o "$out/fuzz-$target" \
        "$out/libTallyIngest.a" "$out/libTallySupport.a" "$out/libTallyEvents.a" -lz
done

# Swift's own crash handler reads the stack in a way AddressSanitizer reports; libFuzzer's is enough.
export SWIFT_BACKTRACE=enable=no
for target in "${targets[@]}"; do
    mkdir -p "$out/corpus/$target"
    echo "fuzzing $target for $seconds s" >&2
    "$out/fuzz-$target" -max_total_time="$seconds" -timeout="$unit_timeout" -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$out/crash-$target-" \
        "$out/corpus/$target" "Fuzz/Corpus/$target" 2>&1 | tee "$out/fuzz-$target.log" | grep -E '^(stat::|#[0-9]+ +DONE|==[0-9]+==ERROR)' || true
done
