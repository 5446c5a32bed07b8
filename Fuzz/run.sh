#!/usr/bin/env bash
# Fuzzes every decoder of FamilyEntitlements, and the rebuild against its no-over-grant property, with libFuzzer for a
# bounded time; exits non-zero on any crash, hang, trap, out-of-memory or property failure. Targets are listed in
# Fuzz/Sources/FuzzTargets.swift (one line each).
#
#   Fuzz/run.sh                      # every target in turn; FUZZ_BUDGET (60) seconds shared, 5 at least each
#   Fuzz/run.sh compact-jws          # named targets only
#   FUZZ_SECONDS=600 Fuzz/run.sh     # a fixed time per target, for longer runs
#   FUZZ_SEED=1 Fuzz/run.sh          # a fixed random seed (CI), so that a run can be repeated; 0 picks one
#   Fuzz/run.sh --replay             # each committed seed and fixture once, on its own, a line each (no fuzzing)
#   Fuzz/run.sh --no-build ...       # reuse the executables already in .build/fuzz (the build takes minutes)
#
# A long campaign (FUZZ_LONG=1 does the same as --campaign):
#
#   Fuzz/run.sh --campaign           # every target at once, FUZZ_WORKERS workers each, inputs up to 64 KB
#   FUZZ_SECONDS=3600 FUZZ_WORKERS=4 Fuzz/run.sh --campaign rebuild-history compact-jws
#
# The campaign runs each target with libFuzzer's -fork=FUZZ_WORKERS (by default the cores divided among the targets,
# at least 1), -max_len=65536, for FUZZ_SECONDS (default 3600) seconds, all targets side by side; each stops at its
# first finding. Seven minutes on 16 cores ran about 125 million inputs over the 8 targets. Extra libFuzzer flags go
# in FUZZ_FLAGS (for instance FUZZ_FLAGS=-ignore_crashes=1 to keep going after a finding).
#
# On a machine without Swift: build with --static (the executables link Swift's runtime and Foundation statically,
# -static-stdlib) and --build-only, then copy .build/fuzz/fuzz-decoders, .build/fuzz/fuzz-differential,
# Fuzz/corpus/ and Fuzz/apple.dict. There, name the target with FUZZ_TARGET (or a symbolic link named after it):
#
#   Fuzz/run.sh --static --build-only
#   FUZZ_TARGET=rebuild-history ./fuzz-decoders -fork=16 -max_len=65536 -dict=apple.dict corpus-rh corpus/rebuild-history
#
# Needs a Swift toolchain for Linux with libFuzzer (swiftc -sanitize=fuzzer). The working corpus grows in
# .build/fuzz/corpus/<target>/; crashing inputs are written to .build/fuzz/artifacts/. Reproduce one with
#   .build/fuzz/<target> .build/fuzz/artifacts/<target>-crash-...
#
# Fuzz/corpus/rebuild-overgrant/ holds histories that over-granted before the rebuild's trust rules (a superseded or
# tied renewal info, snapshots signed after the instant, two bundle ids, impossible data, and the inputs the fuzzer
# itself found since); they seed the rebuild-history target, which fails if any of them grants again.
# Fuzz/run.sh --replay rebuild-history lists each one. They, and the rebuild's seeds, also seed ledger-compaction.
set -euo pipefail
cd "$(dirname "$0")/.."

campaign=${FUZZ_LONG:-0}
replay=0
static=0
build_only=0
build=1
targets=()
for argument in "$@"; do
    case "$argument" in
    --campaign) campaign=1 ;;
    --replay) replay=1 ;;
    --static) static=1 ;;
    --build-only) build_only=1 ;;
    --no-build) build=0 ;;
    -*) echo "fuzz: unknown option $argument" >&2 && exit 2 ;;
    *) targets+=("$argument") ;;
    esac
done

# Swift's own crash handler would take a trap before libFuzzer writes the crashing input; leave it to libFuzzer.
export SWIFT_BACKTRACE=enable=no

budget=${FUZZ_BUDGET:-60}
timeout=${FUZZ_TIMEOUT:-5}
out=.build/fuzz
swiftc=${SWIFTC:-swiftc}
flags=(-sanitize=fuzzer -parse-as-library -O -swift-version 6 -package-name familyentitlements)
link=()
[ "$static" = 1 ] && link=(-static-stdlib)
mkdir -p "$out/lib" "$out/artifacts" "$out/seeds"

started=$(date +%s)
if [ "$build" = 1 ] || [ ! -x "$out/fuzz-decoders" ] || [ ! -x "$out/fuzz-differential" ]; then
    echo "fuzz: building the library with libFuzzer instrumentation"
    # The archiver adds to an archive that exists: objects of files renamed or removed since the last build would stay
    # in it and clash with their successors at link time.
    rm -f "$out/lib/libFamilyEntitlements.a"
    "$swiftc" "${flags[@]}" -module-name FamilyEntitlements -emit-library -static -o "$out/lib/libFamilyEntitlements.a" \
        -emit-module -emit-module-path "$out/lib/FamilyEntitlements.swiftmodule" \
        $(find Sources/FamilyEntitlements -name '*.swift' | sort)
    "$swiftc" "${flags[@]}" ${link[@]+"${link[@]}"} -I "$out/lib" -L "$out/lib" -lFamilyEntitlements \
        Fuzz/Sources/*.swift -o "$out/fuzz-decoders"
    # The fast decoder against JSONDecoder, its own executable; run it with Fuzz/run.sh differential.
    "$swiftc" "${flags[@]}" ${link[@]+"${link[@]}"} -I "$out/lib" -L "$out/lib" -lFamilyEntitlements \
        Fuzz/Differential/main.swift Tests/FamilyEntitlementsTests/RFC8259.swift \
        Tests/FamilyEntitlementsTests/ReferenceJWS.swift -o "$out/fuzz-differential"
fi
built=$(date +%s)
if [ "$build_only" = 1 ]; then
    echo "fuzz: built $out/fuzz-decoders and $out/fuzz-differential in $((built - started))s"
    exit 0
fi

# Seeds: the committed corpus, Fixtures/ (when present), and a compact JWS of every JSON seed in FakeJWSSigner's form.
fixtures=()
[ -d Fixtures ] && fixtures=(Fixtures)
base64url() { base64 | tr -d '\n=' | tr '+/' '-_'; }
rm -rf "$out/seeds/jws" && mkdir -p "$out/seeds/jws"
header=$(printf '%s' '{"alg":"ES256","kid":"FamilyEntitlementsTestSupport.notAppleSigned","typ":"JWT"}' | base64url)
signature=$(printf 'NOT SIGNED BY APPLE' | base64url)
while IFS= read -r seed; do
    printf '%s.%s.%s' "$header" "$(base64url <"$seed")" "$signature" \
        >"$out/seeds/jws/$(basename "$(dirname "$seed")")-$(basename "$seed" .json).jws"
done < <(find Fuzz/corpus ${fixtures[@]+"${fixtures[@]}"} -name '*.json')

if [ ${#targets[@]} -eq 0 ]; then
    while IFS= read -r target; do targets+=("$target"); done < <(FUZZ_TARGET=list "$out/fuzz-decoders")
    targets+=(differential)
fi
for target in "${targets[@]}"; do
    if [ "$target" = differential ]; then
        ln -sf fuzz-differential "$out/$target"
    else
        ln -sf fuzz-decoders "$out/$target"
    fi
    mkdir -p "$out/corpus/$target"
done

# The committed seeds of a target: its folder, and the over-grant histories for the rebuild.
committed_seeds() {
    [ -d "Fuzz/corpus/$1" ] && echo "Fuzz/corpus/$1"
    [ "$1" = rebuild-history ] && [ -d Fuzz/corpus/rebuild-overgrant ] && echo Fuzz/corpus/rebuild-overgrant
    [ "$1" = ledger-compaction ] && printf '%s\n' Fuzz/corpus/rebuild-history Fuzz/corpus/rebuild-overgrant
    return 0
}

if [ "$replay" = 1 ]; then
    failed=0
    for target in "${targets[@]}"; do
        while IFS= read -r seed; do
            if "$out/$target" "$seed" -artifact_prefix="$out/artifacts/$target-" >"$out/replay.log" 2>&1; then
                echo "pass  $target  $seed"
            else
                failed=1
                echo "FAIL  $target  $seed: $(grep -m1 -oE '(fuzz property failed|Fatal error|ERROR): .*' "$out/replay.log")"
            fi
        done < <({
            committed_seeds "$target" | xargs -r -I{} find {} -type f
            [ ${#fixtures[@]} -gt 0 ] && find "${fixtures[@]}" -type f -name '*.json'
        } | sort)
    done
    exit $failed
fi

if [ "$campaign" = 1 ]; then
    seconds=${FUZZ_SECONDS:-3600}
    workers=${FUZZ_WORKERS:-$(($(nproc) / ${#targets[@]} > 1 ? $(nproc) / ${#targets[@]} : 1))}
    max_len=65536
else
    seconds=${FUZZ_SECONDS:-$((budget / ${#targets[@]} > 5 ? budget / ${#targets[@]} : 5))}
    workers=0
    max_len=16384
fi

# Runs one target for $seconds, logging to .build/fuzz/<target>.log; returns libFuzzer's exit status.
fuzz() {
    local target=$1
    local seeds=("$out/seeds/jws" ${fixtures[@]+"${fixtures[@]}"})
    while IFS= read -r folder; do seeds+=("$folder"); done < <(committed_seeds "$target")
    local parallel=()
    if [ "$workers" -gt 0 ]; then
        # With -fork, libFuzzer drops seeds that fail instead of failing on them: run every seed once first.
        "$out/$target" "$out/corpus/$target" "${seeds[@]}" -runs=0 -timeout="$timeout" -rss_limit_mb=2048 \
            -max_len="$max_len" -artifact_prefix="$out/artifacts/$target-" >"$out/$target.log" 2>&1 || return $?
        parallel=(-fork="$workers")
    fi
    # shellcheck disable=SC2086 # FUZZ_FLAGS is a list of flags
    "$out/$target" "$out/corpus/$target" "${seeds[@]}" ${parallel[@]+"${parallel[@]}"} \
        -max_total_time="$seconds" -timeout="$timeout" -seed="${FUZZ_SEED:-0}" -rss_limit_mb=2048 \
        -max_len="$max_len" -dict=Fuzz/apple.dict -artifact_prefix="$out/artifacts/$target-" -print_final_stats=1 \
        ${FUZZ_FLAGS:-} >"$out/$target.log" 2>&1
}

statuses=()
if [ "$campaign" = 1 ]; then
    echo "fuzz: campaign of ${seconds}s, ${#targets[@]} targets at once, $workers workers each, inputs up to 64 KB"
    pids=()
    for target in "${targets[@]}"; do
        fuzz "$target" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do
        status=0
        wait "$pid" || status=$?
        statuses+=("$status")
    done
else
    for target in "${targets[@]}"; do
        echo "fuzz: $target for ${seconds}s"
        status=0
        fuzz "$target" || status=$?
        statuses+=("$status")
    done
fi
finished=$(date +%s)

summary=()
failed=0
total=0
for index in "${!targets[@]}"; do
    target=${targets[$index]}
    status=${statuses[$index]}
    log="$out/$target.log"
    # A single process prints its count at the end; a fork's parent prints running totals as "#N: cov: ...".
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    [ -z "$runs" ] && runs=$(sed -n 's/^#\([0-9][0-9]*\): cov:.*/\1/p' "$log" | tail -1)
    total=$((total + ${runs:-0}))
    corpus=$(find "$out/corpus/$target" -type f | wc -l | tr -d ' ')
    if [ "$status" -ne 0 ]; then
        failed=1
        summary+=("| $target | ${runs:-?} | $seconds | $corpus | FAILED (exit $status, see $log) |")
        grep -E "ERROR|Fatal error|fuzz property failed|Test unit written" "$log" | head -5 || true
    else
        summary+=("| $target | ${runs:-?} | $seconds | $corpus | no crash, hang, trap or over-grant |")
    fi
done

echo
echo "| target | executions | seconds | corpus files | result |"
echo "| --- | ---: | ---: | ---: | --- |"
printf '%s\n' "${summary[@]}"
echo
echo "fuzz: $total executions; build $((built - started))s, fuzzing $((finished - built))s;" \
    "$("$swiftc" --version 2>&1 | head -1)"
exit $failed
