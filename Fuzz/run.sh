#!/usr/bin/env bash
# Fuzzes every decoder of FamilyEntitlements with libFuzzer for a bounded time; exits non-zero on any crash, hang,
# trap or out-of-memory. Targets are listed in Fuzz/Sources/FuzzTargets.swift (one line each).
#
#   Fuzz/run.sh                      # every target; FUZZ_BUDGET (60) seconds shared among them, 5 at least each
#   Fuzz/run.sh compact-jws          # named targets only
#   FUZZ_SECONDS=600 Fuzz/run.sh     # a fixed time per target, for longer runs
#   FUZZ_SEED=1 Fuzz/run.sh          # a fixed random seed (CI), so that a run can be repeated; 0 picks one
#
# Needs a Swift toolchain for Linux with libFuzzer (swiftc -sanitize=fuzzer). The working corpus grows in
# .build/fuzz/corpus/<target>/; crashing inputs are written to .build/fuzz/artifacts/. Reproduce one with
#   .build/fuzz/<target> .build/fuzz/artifacts/<target>-crash-...
set -euo pipefail
cd "$(dirname "$0")/.."

# Swift's own crash handler would take a trap before libFuzzer writes the crashing input; leave it to libFuzzer.
export SWIFT_BACKTRACE=enable=no

budget=${FUZZ_BUDGET:-60}
timeout=${FUZZ_TIMEOUT:-5}
out=.build/fuzz
swiftc=${SWIFTC:-swiftc}
flags=(-sanitize=fuzzer -parse-as-library -O -swift-version 6 -package-name familyentitlements)
mkdir -p "$out/lib" "$out/artifacts" "$out/seeds"

started=$(date +%s)
echo "fuzz: building the library with libFuzzer instrumentation"
"$swiftc" "${flags[@]}" -module-name FamilyEntitlements -emit-library -static -o "$out/lib/libFamilyEntitlements.a" \
    -emit-module -emit-module-path "$out/lib/FamilyEntitlements.swiftmodule" \
    $(find Sources/FamilyEntitlements -name '*.swift' | sort)
"$swiftc" "${flags[@]}" -I "$out/lib" -L "$out/lib" -lFamilyEntitlements Fuzz/Sources/*.swift -o "$out/fuzz-decoders"
# The fast decoder against JSONDecoder, its own executable; run it with Fuzz/run.sh differential.
"$swiftc" "${flags[@]}" -I "$out/lib" -L "$out/lib" -lFamilyEntitlements Fuzz/Differential/main.swift \
    Tests/FamilyEntitlementsTests/RFC8259.swift -o "$out/fuzz-differential"
built=$(date +%s)

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

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    while IFS= read -r target; do targets+=("$target"); done < <(FUZZ_TARGET=list "$out/fuzz-decoders")
    targets+=(differential)
fi
seconds=${FUZZ_SECONDS:-$((budget / ${#targets[@]} > 5 ? budget / ${#targets[@]} : 5))}

summary=()
failed=0
total=0
for target in "${targets[@]}"; do
    if [ "$target" = differential ]; then
        ln -sf fuzz-differential "$out/$target"
    else
        ln -sf fuzz-decoders "$out/$target"
    fi
    mkdir -p "$out/corpus/$target"
    seeds=("$out/seeds/jws" ${fixtures[@]+"${fixtures[@]}"})
    [ -d "Fuzz/corpus/$target" ] && seeds+=("Fuzz/corpus/$target")
    log="$out/$target.log"
    echo "fuzz: $target for ${seconds}s"
    set +e
    "$out/$target" "$out/corpus/$target" "${seeds[@]}" \
        -max_total_time="$seconds" -timeout="$timeout" -seed="${FUZZ_SEED:-0}" -rss_limit_mb=2048 -max_len=16384 \
        -dict=Fuzz/apple.dict -artifact_prefix="$out/artifacts/$target-" -print_final_stats=1 >"$log" 2>&1
    status=$?
    set -e
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    total=$((total + ${runs:-0}))
    corpus=$(find "$out/corpus/$target" -type f | wc -l | tr -d ' ')
    if [ "$status" -ne 0 ]; then
        failed=1
        summary+=("| $target | ${runs:-?} | $seconds | $corpus | FAILED (exit $status, see $log) |")
        grep -E "ERROR|Fatal error|fuzz property failed|Test unit written" "$log" | head -5 || true
    else
        summary+=("| $target | ${runs:-?} | $seconds | $corpus | no crash, hang or trap |")
    fi
done
finished=$(date +%s)

echo
echo "| target | executions | seconds | corpus files | result |"
echo "| --- | ---: | ---: | ---: | --- |"
printf '%s\n' "${summary[@]}"
echo
echo "fuzz: $total executions; build $((built - started))s, fuzzing $((finished - built))s;" \
    "$("$swiftc" --version 2>&1 | head -1)"
exit $failed
