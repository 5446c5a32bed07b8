#!/usr/bin/env python3
"""Mutation testing: applies each mutant of Scripts/mutants.txt to a scratch copy of the package, builds it
incrementally, runs the tests the mutant names, and says whether the tests killed it.

    Scripts/mutate.py                      every mutant
    Scripts/mutate.py rebuild. money.      the mutants whose id starts with one of these prefixes
    Scripts/mutate.py --check              only check that every pattern still matches exactly once (no build)
    Scripts/mutate.py --list               the mutants, one line each

The working tree is never modified: the package is copied (without .build and .git) to a scratch folder that keeps
its own build folder between runs, so later runs build incrementally. An interrupt (Ctrl-C, SIGTERM) restores the
scratch copy; a run killed outright leaves at most the scratch copy mutated, and the next run copies the file back.
Prints one line per mutant:

    killed <id> by <test>
    survived <id>
    equivalent <id>: <reason>
    error <id>: <what went wrong>

then a summary with the score and the run time. Exits 1 when a non-equivalent mutant survives or any mutant is in
error (a pattern that no longer matches, a mutant that does not compile), 2 when the unmutated package fails.
Only the Python standard library and the Swift toolchain are used.
"""

import argparse
import fcntl
import filecmp
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOGUE = os.path.join(ROOT, "Scripts", "mutants.txt")
KEYS = {"id", "file", "find", "replace", "tests", "kills", "equivalent"}
REQUIRED = ("id", "file", "find", "replace", "tests")
EXCLUDED = {".build", ".git", ".swiftpm"}


class Mutant:
    def __init__(self, fields, line):
        self.line = line
        self.id = fields["id"]
        self.file = fields["file"]
        self.find = fields["find"]
        self.replace = fields["replace"]
        self.tests = fields["tests"].split()
        self.kills = fields.get("kills")
        self.equivalent = fields.get("equivalent")


def parse_catalogue(path):
    """The mutants of the catalogue, in order; raises ValueError naming the line of a malformed block."""
    mutants, fields, start, last = [], {}, 0, ""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    for number, raw in enumerate(lines + [""], start=1):
        text = raw.rstrip()
        if text.startswith("#"):
            continue
        if not text:
            if fields:
                missing = [key for key in REQUIRED if key not in fields]
                if missing:
                    raise ValueError(f"{path}:{start}: mutant without {', '.join(missing)}")
                mutants.append(Mutant(fields, start))
                fields = {}
            continue
        if text.startswith("|"):
            if not fields:
                raise ValueError(f"{path}:{number}: a continuation line outside a mutant")
            fields[last] += "\n" + text[1:]
            continue
        key, colon, value = text.partition(":")
        if not colon or key not in KEYS:
            raise ValueError(f"{path}:{number}: expected one of {sorted(KEYS)} followed by ':'")
        if key in fields:
            raise ValueError(f"{path}:{number}: {key} given twice")
        if not fields:
            start = number
        fields[key] = value[1:] if value.startswith(" ") else value
        last = key
    ids = [mutant.id for mutant in mutants]
    duplicates = sorted({mutant_id for mutant_id in ids if ids.count(mutant_id) > 1})
    if duplicates:
        raise ValueError(f"{path}: duplicate ids {', '.join(duplicates)}")
    return mutants


def pattern_error(mutant, root):
    """Why the mutant cannot be applied to the sources under `root`, or None."""
    path = os.path.join(root, mutant.file)
    if not os.path.isfile(path):
        return f"file {mutant.file} not found"
    with open(path, encoding="utf-8") as handle:
        count = handle.read().count(mutant.find)
    if count == 0:
        return "pattern not found"
    if count > 1:
        return f"pattern found {count} times; it must be unique"
    if mutant.find == mutant.replace:
        return "replacement equals the pattern"
    return None


def sync(source, target, skip):
    """Makes `target` a copy of `source` without build outputs (nor `skip`, a scratch folder inside the package),
    copying only files whose contents differ, so that the build in the scratch folder stays incremental."""
    for directory, subdirectories, files in os.walk(source):
        subdirectories[:] = [
            name for name in subdirectories
            if name not in EXCLUDED and os.path.realpath(os.path.join(directory, name)) != skip]
        relative = os.path.relpath(directory, source)
        destination = os.path.normpath(os.path.join(target, relative))
        os.makedirs(destination, exist_ok=True)
        wanted = set(subdirectories) | set(files)
        for name in os.listdir(destination):
            if name not in wanted and not (relative == "." and name in EXCLUDED):
                stale = os.path.join(destination, name)
                if os.path.isdir(stale) and not os.path.islink(stale):
                    shutil.rmtree(stale)
                else:
                    os.remove(stale)
        for name in files:
            origin, copy = os.path.join(directory, name), os.path.join(destination, name)
            if os.path.islink(origin):
                continue
            if not os.path.isfile(copy) or not filecmp.cmp(origin, copy, shallow=False):
                shutil.copy2(origin, copy)
                touch(copy)


def touch(path):
    """Gives a rewritten file a modification time later than any it had, so that the build sees the change."""
    now = time.time_ns()
    previous = os.stat(path).st_mtime_ns
    stamp = max(now, previous + 1_000_000)
    os.utime(path, ns=(stamp, stamp))


def write(path, text):
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    touch(path)


def run(command, cwd, timeout):
    """Runs a command; returns (exit status, output), the status None when it timed out."""
    # In a session of its own, so that a timeout ends the test process that `swift test` started as well.
    process = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
        start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
        return process.returncode, output
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return None, output
    except BaseException:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise


FAILURE_PATTERNS = [
    # Swift Testing, a parameterised test: the test and the argument (a named row) it failed on.
    re.compile(r"✘ Test (.+?) recorded an issue with \d+ arguments? \w+ → (.*?) at [^ ]+\.swift:\d+:\d+: "),
    re.compile(r"✘ Test (.+?) recorded an issue at [^ ]+\.swift:\d+:\d+: "),
    re.compile(r"✘ Test (.+?) failed after"),
    # XCTest.
    re.compile(r"error: -\[(\S+ \S+)\] :"),
    re.compile(r"Test Case '(.+?)' failed"),
]


# The lines that sum up a run or a parameterised test rather than name what failed.
AGGREGATE = re.compile(r"✘ Test run with |✘ Test .+ with \d+ test cases failed|Test Suite '.*' failed")


def failing_tests(output):
    """The failing tests named in the output, in a reviewer's words, first failure first."""
    found = []
    for line in output.splitlines():
        if AGGREGATE.search(line):
            continue
        for pattern in FAILURE_PATTERNS:
            match = pattern.search(line)
            if match:
                name = " ".join(group.strip() for group in match.groups() if group)
                if name not in found:
                    found.append(name)
                break
    # A test that recorded issues is reported once more when it fails; keep the more precise line.
    return [name for name in found if not any(other != name and other.startswith(name) for other in found)]


def failing_test(output, expected=None):
    """The failing test written for the mutant where it failed, else the first, with how many more failed, or what
    else ended the run."""
    names = failing_tests(output)
    if expected:
        matching = [name for name in names if expected in name]
        if matching:
            more = f" (and {len(names) - 1} more)" if len(names) > 1 else ""
            return f"{matching[0]}{more}"
        if names:
            return f"{names[0]} (but not by {expected}, which passed)"
    if names:
        more = f" (and {len(names) - 1} more)" if len(names) > 1 else ""
        return f"{names[0]}{more}"
    if "Fatal error" in output or "Crash" in output or "signal" in output:
        return "a crash of the test process"
    return "a failing test run (see the output)"


def swift(*arguments, scratch):
    return ["swift", *arguments, "--scratch-path", scratch]


def main():
    parser = argparse.ArgumentParser(description="Runs the mutants of Scripts/mutants.txt against the tests.")
    parser.add_argument("prefixes", nargs="*", help="run only the mutants whose id starts with one of these")
    parser.add_argument("--check", action="store_true", help="only check that every pattern matches exactly once")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument(
        "--scratch", default=os.environ.get("MUTATE_SCRATCH")
        or os.path.join(tempfile.gettempdir(), "familyentitlements-mutants"),
        help="scratch folder kept between runs (default: $MUTATE_SCRATCH or the temporary folder)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds allowed for one build or one test run")
    parser.add_argument("--verbose", action="store_true", help="print the test output of survivors and errors")
    options = parser.parse_args()

    try:
        mutants = parse_catalogue(CATALOGUE)
    except ValueError as error:
        print(f"error: {error}")
        return 1
    selected = [m for m in mutants if not options.prefixes or any(m.id.startswith(p) for p in options.prefixes)]
    if not selected:
        print("error: no mutant matches " + " ".join(options.prefixes))
        return 1
    if options.list:
        for mutant in selected:
            print(f"{mutant.id}  {mutant.file}  {mutant.find!r} -> {mutant.replace!r}")
        return 0

    started = time.monotonic()
    errors = {m.id: problem for m in selected if (problem := pattern_error(m, ROOT))}
    if options.check:
        for mutant in selected:
            if mutant.id in errors:
                print(f"error {mutant.id}: {errors[mutant.id]}")
        print(f"checked {len(selected)} mutants: {len(errors)} errors")
        return 1 if errors else 0

    source = os.path.join(options.scratch, "src")
    build = os.path.join(options.scratch, "build")
    os.makedirs(source, exist_ok=True)
    # One run per scratch folder at a time: a second would build over the first one's mutant.
    lock = open(os.path.join(options.scratch, "lock"), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        print(f"error: another run is using {options.scratch}; pass --scratch for a folder of its own")
        return 2
    sync(ROOT, source, skip=os.path.realpath(options.scratch))
    status, output = run(swift("build", "--build-tests", scratch=build), source, options.timeout * 4)
    if status != 0:
        print(output[-4000:])
        print("error: the unmutated package does not build")
        return 2
    filters = sorted({test for m in selected if not m.equivalent and m.id not in errors for test in m.tests})
    if filters:
        command = swift("test", "--skip-build", scratch=build) + [f for t in filters for f in ("--filter", t)]
        status, output = run(command, source, options.timeout)
        if status != 0:
            print(output[-4000:])
            print(f"error: the unmutated package fails its tests ({failing_test(output)}); mutants cannot be judged")
            return 2
    baseline = time.monotonic() - started

    counts = {"killed": 0, "survived": 0, "equivalent": 0, "error": 0}
    for mutant in selected:
        if mutant.id in errors:
            counts["error"] += 1
            print(f"error {mutant.id}: {errors[mutant.id]}", flush=True)
            continue
        if mutant.equivalent:
            counts["equivalent"] += 1
            print(f"equivalent {mutant.id}: {mutant.equivalent}", flush=True)
            continue
        path = os.path.join(source, mutant.file)
        with open(path, encoding="utf-8") as handle:
            original = handle.read()
        try:
            write(path, original.replace(mutant.find, mutant.replace, 1))
            status, output = run(swift("build", "--build-tests", scratch=build), source, options.timeout)
            if status != 0:
                counts["error"] += 1
                reason = "the build timed out" if status is None else "the mutant does not compile"
                print(f"error {mutant.id}: {reason}", flush=True)
                if options.verbose:
                    print(output[-4000:])
                continue
            # One filter at a time, in the catalogue's order, stopping at the first that fails: the test written
            # for a mutant comes first, and a killed mutant costs one short test run.
            for test in mutant.tests:
                status, output = run(
                    swift("test", "--skip-build", scratch=build) + ["--filter", test], source, options.timeout)
                if status != 0:
                    break
            if status is None:
                counts["killed"] += 1
                print(f"killed {mutant.id} by a timeout of the tests ({options.timeout} s)", flush=True)
            elif status != 0:
                counts["killed"] += 1
                print(f"killed {mutant.id} by {failing_test(output, mutant.kills)}", flush=True)
            else:
                counts["survived"] += 1
                print(f"survived {mutant.id}", flush=True)
                if options.verbose:
                    print(output[-2000:])
        finally:
            write(path, original)

    judged = counts["killed"] + counts["survived"]
    score = 100.0 * counts["killed"] / judged if judged else 100.0
    elapsed = time.monotonic() - started
    print(
        f"mutation score {score:.0f} %: {counts['killed']} killed, {counts['survived']} survived, "
        f"{counts['equivalent']} equivalent, {counts['error']} errors, of {len(selected)} mutants; "
        f"run time {int(elapsed // 60)} min {int(elapsed % 60)} s (build and baseline tests {baseline:.0f} s)")
    return 1 if counts["survived"] or counts["error"] else 0


def terminate(signal_number, frame):
    """Ends the run on SIGTERM as on an interrupt, so that the mutated file is restored and no build is left behind."""
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, terminate)
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted; the working tree was never modified, and the scratch copy was restored")
        sys.exit(130)
