#!/usr/bin/env bash
# Builds the C++ tests of the native core (native/tests/*_test.cc) and runs
# them with ctest, three times: a plain optimised build, AddressSanitizer
# (+ LeakSanitizer) and ThreadSanitizer. Each goes to its own build dir:
#   build/native-plain  build/native-asan  build/native-tsan
#
# Usage: scripts/check_native.sh [plain] [address] [thread]   (default: all)
# Env:   JOBS (default 2), CTEST_TIMEOUT (seconds per test, default 600).
set -euo pipefail

cd "$(dirname "$0")/.."
JOBS="${JOBS:-2}"
CTEST_TIMEOUT="${CTEST_TIMEOUT:-600}"
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then variants=(plain address thread); fi

# Sanitizer reports fail the run; keep them readable.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:history_size=4}"

run_variant() {
  local variant="$1" dir sanitizer build_type
  case "$variant" in
    plain) dir=build/native-plain; sanitizer=""; build_type=Release ;;
    address) dir=build/native-asan; sanitizer=address; build_type=Debug ;;
    # Plain Debug (-O0) is enough: TSan reports nothing in the
    # condition_variable internals at -O0 with this toolchain (GCC 12).
    thread) dir=build/native-tsan; sanitizer=thread; build_type=Debug ;;
    *) echo "unknown variant '$variant' (plain, address, thread)" >&2; return 2 ;;
  esac
  echo "=== $variant: configure + build ($dir)"
  cmake -S . -B "$dir" -DENVPOOL_BUILD_PYTHON=OFF -DENVPOOL_BUILD_TESTS=ON \
    -DENVPOOL_SANITIZER="$sanitizer" -DCMAKE_BUILD_TYPE="$build_type" >/dev/null
  cmake --build "$dir" -j"$JOBS"
  echo "=== $variant: ctest"
  local runner=()
  # TSan cannot map its shadow memory under the high-entropy ASLR of some
  # kernels ("unexpected memory mapping"); running without ASLR fixes that.
  if [ "$variant" = thread ] && command -v setarch >/dev/null 2>&1 && setarch "$(uname -m)" -R true 2>/dev/null; then
    runner=(setarch "$(uname -m)" -R)
  fi
  "${runner[@]}" ctest --test-dir "$dir" --output-on-failure --timeout "$CTEST_TIMEOUT" -j"$JOBS"
}

status=0
failed=()
for v in "${variants[@]}"; do
  start=$SECONDS
  if run_variant "$v"; then
    echo "=== $v: passed ($((SECONDS - start)) s)"
  else
    echo "=== $v: FAILED ($((SECONDS - start)) s)"
    status=1
    failed+=("$v")
  fi
done
if [ $status -ne 0 ]; then echo "FAILED: ${failed[*]}"; else echo "all native checks passed"; fi
exit $status
