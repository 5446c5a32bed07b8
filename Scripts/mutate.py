#!/usr/bin/env python3
"""Mutation testing: applies mutants to a scratch copy of the package, builds it incrementally, runs the tests, and
says whether the tests killed each one.

Two sources of mutants (docs/testing.md says how each is used):
- generated ones, made by operator from the decision code (Scripts/mutation/swift_mutants.py): CI runs the fixed list
  of Scripts/mutation/ci.txt, campaigns draw seeded samples of all of them;
- the hand catalogue, Scripts/mutants.txt, for slips generation cannot express.

    Scripts/mutate.py                          CI: the hand catalogue, then the generated mutants of the fixed list
    Scripts/mutate.py rebuild. g.ledger.       only the mutants (of both) whose id starts with one of these prefixes
    Scripts/mutate.py --campaign 1 --size 400  a seeded sample of every generated mutant, resumable (campaigns/)
    Scripts/mutate.py --campaign 7 --size 40 g.rebuild.Admission.   a fresh sample of one file's mutants
    Scripts/mutate.py --recheck 1              the survivors of campaign 1 again, against today's tests
    Scripts/mutate.py --scores 1               campaign 1's scores by area, before and after its new tests (no build)
    Scripts/mutate.py --ids ID [ID ...]        these generated mutants
    Scripts/mutate.py --differential ID [...]  an equivalent mutant against the original on generated histories
    Scripts/mutate.py --check                  only check that every pattern, list and id still matches (no build)
    Scripts/mutate.py --list                   the mutants, one line each

The working tree is never modified: the package is copied (without .build and .git) to a scratch folder that keeps
its own build folder between runs, so later runs build incrementally. An interrupt (Ctrl-C, SIGTERM) restores the
scratch copy; a run killed outright leaves at most the scratch copy mutated, and the next run copies the file back.
Prints one line per mutant:

    killed <id> by <test>
    survived <id>
    equivalent <id>: <reason>
    uncompilable <id>            (a generated mutant that does not compile: dropped on its own)
    error <id>: <what went wrong>

then a summary with the score and the run time. Exits 1 when a non-equivalent mutant survives or any mutant is in
error (a pattern or id that no longer matches, a hand mutant that does not compile), 2 when the unmutated package
fails. Only the Python standard library and the Swift toolchain are used.
"""

import argparse
import fcntl
import filecmp
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Scripts", "mutation"))
import schemata  # noqa: E402
import swift_mutants  # noqa: E402

CATALOGUE = os.path.join(ROOT, "Scripts", "mutants.txt")
MUTATION = os.path.join(ROOT, "Scripts", "mutation")
CI_LIST = os.path.join(MUTATION, "ci.txt")
EQUIVALENTS = os.path.join(MUTATION, "equivalent.txt")
SUITE_MAP = os.path.join(MUTATION, "suites.json")
CAMPAIGNS = os.path.join(MUTATION, "campaigns")
KEYS = {"id", "file", "find", "replace", "tests", "kills", "equivalent"}
REQUIRED = ("id", "file", "find", "replace", "tests")
EXCLUDED = {".build", ".git", ".swiftpm"}
TEST_MODULE = "FamilyEntitlementsTests"
PACKAGE = "FamilyEntitlements"
# A suite this quick runs first, with the others as quick, in one process: most mutants die there.
QUICK_SUITE_SECONDS = 1.5
# The suites this fast run together next, whether or not they reach the mutated line: a few seconds in all.
FAST_SUITE_SECONDS = 6.0
# The quick suites run in batches, fastest first, the first one of about this many seconds and each next one twice
# as long: a mutant the first one kills (most do, by the decision table) never waits for the slower quick suites, and
# a test process starts in a tenth of this.
QUICK_BATCH_SECONDS = 2.0
DIFFERENTIAL_SUITE = "MutationDifferentialTests"


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


def parse_blocks(path, keys, required):
    """The `key: value` blocks of a file, in order; raises ValueError naming the line of a malformed block."""
    blocks, fields, start, last = [], {}, 0, ""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    for number, raw in enumerate(lines + [""], start=1):
        text = raw.rstrip()
        if text.startswith("#"):
            continue
        if not text:
            if fields:
                missing = [key for key in required if key not in fields]
                if missing:
                    raise ValueError(f"{path}:{start}: block without {', '.join(missing)}")
                blocks.append((fields, start))
                fields = {}
            continue
        if text.startswith("|"):
            if not fields:
                raise ValueError(f"{path}:{number}: a continuation line outside a block")
            fields[last] += "\n" + text[1:]
            continue
        key, colon, value = text.partition(":")
        if not colon or key not in keys:
            raise ValueError(f"{path}:{number}: expected one of {sorted(keys)} followed by ':'")
        if key in fields:
            raise ValueError(f"{path}:{number}: {key} given twice")
        if not fields:
            start = number
        fields[key] = value[1:] if value.startswith(" ") else value
        last = key
    ids = [block["id"] for block, _ in blocks]
    duplicates = sorted({block_id for block_id in ids if ids.count(block_id) > 1})
    if duplicates:
        raise ValueError(f"{path}: duplicate ids {', '.join(duplicates)}")
    return blocks


def parse_catalogue(path):
    """The mutants of the hand catalogue, in order."""
    return [Mutant(fields, line) for fields, line in parse_blocks(path, KEYS, REQUIRED)]


def parse_equivalents(path=EQUIVALENTS):
    """The reviewed equivalent generated mutants: id -> (reason, differential check)."""
    if not os.path.exists(path):
        return {}
    blocks = parse_blocks(path, {"id", "reason", "checked"}, ("id", "reason", "checked"))
    return {fields["id"]: (fields["reason"], fields["checked"]) for fields, _ in blocks}


def parse_list(path=CI_LIST):
    """The ids of a list file, one per line; `#` starts a comment."""
    ids, seen = [], {}
    with open(path, encoding="utf-8") as handle:
        for number, raw in enumerate(handle, start=1):
            text = raw.split("#", 1)[0].strip()
            if not text:
                continue
            if text in seen:
                raise ValueError(f"{path}:{number}: {text} is listed already, on line {seen[text]}")
            seen[text] = number
            ids.append(text)
    return ids


def parse_first_suites(path=CI_LIST):
    """The suite to run first for a listed mutant, from a `first: <Suite>` in its comment: the suite that killed it,
    where no quick suite does. Only time depends on it: the other suites still run where that one passes."""
    first = {}
    with open(path, encoding="utf-8") as handle:
        for raw in handle:
            text, _, comment = raw.partition("#")
            if text.strip() and (match := re.search(r"\bfirst: (\w+)", comment)):
                first[text.strip()] = match.group(1)
    return first


def pattern_error(mutant, root):
    """Why the hand mutant cannot be applied to the sources under `root`, or None."""
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


def run(command, cwd, timeout, env=None):
    """Runs a command; returns (exit status, output), the status None when it timed out."""
    # In a session of its own, so that a timeout ends the test process that `swift test` started as well.
    process = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
        start_new_session=True, env=env)
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
    for line in ANSI.sub("", output).splitlines():
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


def suite_filter(names):
    return f"^{TEST_MODULE}\\.({'|'.join(sorted(names))})/"


class Workspace:
    """The scratch copy of the package and its build folder."""

    def __init__(self, scratch, timeout):
        self.scratch = scratch
        self.source = os.path.join(scratch, "src")
        self.build_path = os.path.join(scratch, "build")
        self.timeout = timeout
        os.makedirs(self.source, exist_ok=True)
        self.lock = None
        # The original text of each file a build of schemata changed.
        self.touched = {}

    def acquire(self):
        # One run per scratch folder at a time: a second would build over the first one's mutant.
        self.lock = open(os.path.join(self.scratch, "lock"), "w")
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        sync(ROOT, self.source, skip=os.path.realpath(self.scratch))
        return True

    def swift(self, *arguments):
        return ["swift", *arguments, "--scratch-path", self.build_path]

    def build(self, timeout=None):
        return run(self.swift("build", "--build-tests"), self.source, timeout or self.timeout)

    def test(self, include=None, skip=None, filters=None, timeout=None, env=None):
        env = dict(env or os.environ, NO_COLOR="1")
        # The test bundle run directly, as `swift test` runs it for Swift Testing, without a second of the package
        # manager's planning per run; `swift test` where the bundle is not a plain executable (macOS).
        bundle = os.path.join(self.build_path, "debug", f"{PACKAGE}PackageTests.xctest")
        if os.path.isfile(bundle) and os.access(bundle, os.X_OK):
            command = [bundle, "--testing-library", "swift-testing"]
        else:
            command = self.swift("test", "--skip-build")
        if include is not None:
            command += ["--filter", suite_filter(include)]
        if skip:
            command += ["--skip", suite_filter(skip)]
        for test in filters or []:
            command += ["--filter", test]
        return run(command, self.source, timeout or self.timeout, env=env)

    def build_schemata(self, schemas):
        """Writes every schema into its file and builds; a schema the compiler refuses is left out and the build
        tried again. Returns the schemas of the build that succeeded (none where no build did)."""
        remaining = list(schemas)
        for _ in range(12):
            if not remaining:
                break
            by_path, lines = {}, {}
            for schema in remaining:
                by_path.setdefault(schema.path, []).append(schema)
            left_out = set()
            for path, group in by_path.items():
                full = os.path.join(self.source, path)
                if path not in self.touched:
                    with open(full, encoding="utf-8") as handle:
                        self.touched[path] = handle.read()
                refused = schemata.unparsable(self.touched[path], group, self.scratch)
                group = [schema for schema in group if schema.id not in refused]
                text, unplaced, lines[path] = schemata.render(self.touched[path], group)
                left_out |= refused | {schema.id for schema in unplaced}
                write(full, text)
            write(os.path.join(self.source, schemata.SWITCH_FILE), schemata.SWITCH_SOURCE)
            remaining = [schema for schema in remaining if schema.id not in left_out]
            status, output = self.build(timeout=self.timeout * 4)
            if status == 0:
                return remaining
            culprits = schemata.culprits(schemata.failing_lines(output, self.source), lines)
            if not culprits:
                print(output[-3000:])
                print("the build of mutant schemata fails where no mutant was placed; judging them one by one")
                break
            remaining = [schema for schema in remaining if schema.id not in culprits]
            self.restore(build=False)
        self.restore(build=False)
        return []

    def restore(self, build=True):
        """Writes back every file a schema build changed."""
        for path, text in self.touched.items():
            write(os.path.join(self.source, path), text)
        self.touched = {}
        switch = os.path.join(self.source, schemata.SWITCH_FILE)
        if os.path.exists(switch):
            os.remove(switch)

    def suites(self):
        status, output = run(self.swift("test", "list", "--skip-build"), self.source, self.timeout)
        if status != 0:
            raise RuntimeError("swift test list failed:\n" + output[-2000:])
        names = set()
        for line in output.splitlines():
            if line.startswith(TEST_MODULE + "."):
                names.add(line[len(TEST_MODULE) + 1:].split("/")[0])
        return sorted(names)


class SuiteMap:
    """Which suites to run first for a mutated file or line: Scripts/mutation/suites.json, and a campaign's cache of
    the lines each suite executes where it is current."""

    def __init__(self, root, lines_cache=None):
        self.root = root
        with open(SUITE_MAP, encoding="utf-8") as handle:
            document = json.load(handle)
        self.timings = document["suites"]
        self.files = document["files"]
        self.lines = {}
        if lines_cache and os.path.exists(lines_cache):
            with open(lines_cache, encoding="utf-8") as handle:
                cache = json.load(handle)["files"]
            for path, entry in cache.items():
                with open(os.path.join(root, path), "rb") as source:
                    if hashlib.sha1(source.read()).hexdigest() == entry["sha1"]:
                        self.lines[path] = entry["suites"]

    def covering(self, mutant):
        """The suites that reach the mutant, fastest first: by line where the cache is current, else by file."""
        if mutant.file in self.lines:
            with open(os.path.join(self.root, mutant.file), encoding="utf-8") as handle:
                source = handle.read()
            first = source.count("\n", 0, mutant.start) + 1
            last = source.count("\n", 0, mutant.end) + 1
            names = [name for name, runs in self.lines[mutant.file].items()
                     if any(low <= last and first <= high for low, high in runs)]
        else:
            names = list(self.files.get(mutant.file, []))
        return sorted(names, key=lambda name: (self.timings.get(name, 1e9), name))


def environment(number):
    """The environment that switches schema mutant `number` on, or None for the build as it is."""
    return None if number is None else dict(os.environ, **{schemata.VARIABLE: str(number)})


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run_batches(workspace, batches, env=None, killers=None):
    """Runs the batches of suites in order until one fails. Returns (result, by); adds the failing batch's suites to
    `killers` where given."""
    for batch in batches:
        if not batch:
            continue
        status, output = workspace.test(include=batch, env=env)
        if status != 0 and killers is not None:
            killers.suites.update(batch)
        if status is None:
            return "killed", f"a timeout of the tests ({workspace.timeout} s)"
        if status != 0:
            return "killed", failing_test(output)
    return "survived", ""


def run_filters(workspace, mutant, env=None, killers=None):
    """Runs a hand mutant's tests in the catalogue's order until one fails: the test written for a mutant comes
    first, and a killed mutant costs one short test run. Returns (result, by); adds the failing filter to `killers`
    where given."""
    status = 0
    for test in mutant.tests:
        status, output = workspace.test(filters=[test], env=env)
        if status != 0:
            if killers is not None:
                killers.filters.add(test)
            break
    if status is None:
        return "killed", f"a timeout of the tests ({workspace.timeout} s)"
    if status != 0:
        return "killed", failing_test(output, mutant.kills)
    return "survived", ""


def in_batches(names, timings, seconds=QUICK_BATCH_SECONDS):
    """The suites `names`, in their order, cut into batches of growing size: the first one's measured times add up to
    at most `seconds`, each later one's to at most twice its predecessor's limit (a slower suite makes a batch of its
    own). A mutant waits at most about twice as long as the suites up to the one that kills it, and a survivor
    starts only a few more processes."""
    result, total, limit = [], 0.0, seconds
    for name in names:
        time_taken = timings.get(name, seconds)
        if not result or total + time_taken > limit:
            if result:
                limit *= 2
            result.append([])
            total = 0.0
        result[-1].append(name)
        total += time_taken
    return result


def batches(mutant, suite_map, every_suite, first=None):
    """The suites to run for a generated mutant, in batches, each batch one test process, until one fails: the quick
    suites that reach its line, in batches of growing size; the other fast suites that reach its file; the slow suites
    that reach its file; then every other suite. Most mutants die in the first batch, a killed mutant never waits for a
    suite that cannot reach it, and a survivor costs one run of every suite in all, its slow suites side by side on
    every core."""
    covering = [name for name in suite_map.covering(mutant) if name in every_suite]
    quick = [name for name in covering if suite_map.timings.get(name, 1e9) <= QUICK_SUITE_SECONDS]
    reaching = set(suite_map.files.get(mutant.file, []))
    fast = [name for name in every_suite
            if name in reaching and name not in quick and suite_map.timings.get(name, 1e9) <= FAST_SUITE_SECONDS]
    slow = [name for name in every_suite if name in reaching and name not in quick and name not in fast]
    rest = [name for name in every_suite if name not in quick and name not in fast and name not in slow]
    ordered = [*in_batches(quick, suite_map.timings), fast, slow, rest]
    if first in every_suite:
        ordered = [[first]] + [[name for name in batch if name != first] for batch in ordered]
    return [batch for batch in ordered if batch]


class Killers:
    """The suites and test filters that failed with a mutant switched on: the tests whose verdicts a check after the
    run confirms."""

    def __init__(self):
        self.suites, self.filters = set(), set()


class Judge:
    """Judges mutants in the scratch copy: first every mutant a schema can switch, in one build, each by a test run
    with its number in the environment; then the rest one by one, each applied to its file and built.

    A verdict of killed holds only where the tests that failed pass with no mutant. By default the whole suite runs on
    the build first. With `verify_after` (CI, whose verdicts all come at the end), the build of schemata runs instead,
    after its mutants, only the suites and filters that failed with one of them switched on: the same guarantee for
    every verdict given, without a second run of the suites no mutant failed."""

    def __init__(self, workspace, suite_map, use_schemata=True, first_suites=None, verify_after=False):
        self.workspace, self.suite_map = workspace, suite_map
        self.use_schemata = use_schemata
        self.verify_after = verify_after
        # The suite to run first for a mutant (Scripts/mutation/ci.txt's `first:`), by id.
        self.first_suites = first_suites or {}
        # The suites of the package, listed once a build succeeded.
        self.every_suite = None
        # Whether the whole suite passed with no mutant applied, on the build the verdicts come from.
        self.verified = False

    def verify(self, what, killers=None):
        """Runs the whole suite (or only the suites and filters of `killers`) with no mutant switched on or applied;
        raises BaselineFailure where it fails."""
        began = time.monotonic()
        if self.every_suite is None:
            self.every_suite = self.workspace.suites()
        if killers is None:
            status, output = self.workspace.test(include=None)
        elif not killers.suites and not killers.filters:
            return
        else:
            # Several --filter options select the tests that match any of them.
            status, output = self.workspace.test(
                include=sorted(killers.suites) or None, filters=sorted(killers.filters),
                timeout=self.workspace.timeout * 2)
            what += f" ({len(killers.suites)} suites and {len(killers.filters)} filters that failed with a mutant)"
        if status != 0:
            print(output[-4000:])
            raise BaselineFailure(f"{what} fails its tests ({failing_test(output)})")
        print(f"{what} passes {'the whole suite' if killers is None else 'them'} ({time.monotonic() - began:.0f} s)",
              flush=True)
        # Only the whole suite vouches for a later verdict of the mutants built one by one.
        self.verified = self.verified or killers is None

    def judge(self, items, report):
        """Judges `items`, pairs of ("hand" or "generated", mutant), calling report(kind, mutant, result, by,
        seconds) for each, schema mutants first."""
        textual = list(items)
        if self.use_schemata and items:
            placed = self.schema_phase(items, report)
            textual = [(kind, mutant) for kind, mutant in items if mutant.id not in placed]
        if textual and not self.verified:
            status, output = self.workspace.build()
            if status != 0:
                print(output[-4000:])
                raise BaselineFailure("the unmutated package does not build")
            self.verify("the unmutated package")
        for kind, mutant in textual:
            began = time.monotonic()
            if kind == "hand":
                result, by = self.judge_hand(mutant)
            else:
                result, by = self.judge_generated(mutant)
            report(kind, mutant, result, by, time.monotonic() - began)

    def schema_phase(self, items, report):
        """Builds every mutant a schema can switch into one build and judges each; returns the ids it judged."""
        workspace = self.workspace
        schemas = []
        for number, (kind, mutant) in enumerate(items):
            if kind == "generated":
                schemas += schemata.schemas_of_generated([mutant], first_number=number)
            else:
                with open(os.path.join(workspace.source, mutant.file), encoding="utf-8") as handle:
                    schema = schemata.schema_of_hand(mutant, handle.read(), number)
                if schema:
                    schemas.append(schema)
        began = time.monotonic()
        placed = workspace.build_schemata(schemas)
        judged = set()
        if placed:
            # The build with no mutant switched on must pass as the package does, or no verdict can be trusted.
            print(f"{len(placed)} of {len(items)} mutants switched in one build ({time.monotonic() - began:.0f} s)",
                  flush=True)
            if self.verify_after:
                if self.every_suite is None:
                    self.every_suite = workspace.suites()
            else:
                self.verify("the build of schemata, no mutant switched on,")
        killers = Killers() if self.verify_after else None
        numbers = {schema.id: schema.number for schema in placed}
        for kind, mutant in items:
            if mutant.id not in numbers:
                continue
            began = time.monotonic()
            env = environment(numbers[mutant.id])
            if kind == "hand":
                result, by = run_filters(workspace, mutant, env, killers)
            else:
                result, by = run_batches(workspace, batches(
                    mutant, self.suite_map, self.every_suite, self.first_suites.get(mutant.id)), env, killers)
            report(kind, mutant, result, by, time.monotonic() - began)
            judged.add(mutant.id)
        if placed and killers is not None:
            self.verify("the build of schemata, no mutant switched on,", killers)
        workspace.restore()
        return judged

    def judge_generated(self, mutant):
        """Applies a generated mutant to its file, builds, and runs the suites that reach it, then the rest of the
        suite if it survives them. Returns (result, by)."""
        workspace = self.workspace
        path = os.path.join(workspace.source, mutant.file)
        with open(path, encoding="utf-8") as handle:
            original = handle.read()
        if original[mutant.start:mutant.end] != mutant.original:
            return "error", "the scratch copy differs from the code the mutant was generated from"
        try:
            write(path, swift_mutants.apply(mutant, original))
            status, output = workspace.build()
            if status != 0:
                return ("error", "the build timed out") if status is None else ("uncompilable", "")
            return run_batches(workspace, batches(
                mutant, self.suite_map, self.every_suite, self.first_suites.get(mutant.id)))
        finally:
            write(path, original)

    def judge_hand(self, mutant):
        """Applies a hand mutant, builds, and runs its tests. Returns (result, by)."""
        workspace = self.workspace
        path = os.path.join(workspace.source, mutant.file)
        with open(path, encoding="utf-8") as handle:
            original = handle.read()
        try:
            write(path, original.replace(mutant.find, mutant.replace, 1))
            status, output = workspace.build()
            if status != 0:
                return "error", "the build timed out" if status is None else "the mutant does not compile"
            return run_filters(workspace, mutant)
        finally:
            write(path, original)


def generated_by_id(root=ROOT):
    return {mutant.id: mutant for mutant in swift_mutants.generate(root)}


def sample_order(mutants, seed):
    """Every generated mutant in the campaign's seeded order: by a hash of the seed and the id, so that the order of
    the ids already drawn does not change when code elsewhere gains or loses mutants."""
    return sorted(mutants, key=lambda m: hashlib.sha1(f"{seed}:{m.id}".encode()).hexdigest())


def read_results(path):
    """A campaign's results: id -> (result, by, seconds), in file order."""
    results = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("#") or not line.strip():
                    continue
                fields = line.rstrip("\n").split("\t")
                results[fields[0]] = (fields[1], fields[2] if len(fields) > 2 else "",
                                      fields[3] if len(fields) > 3 else "")
    return results


def append_result(path, header, mutant_id, result, by, seconds):
    new = not os.path.exists(path)
    with open(path, "a", encoding="utf-8") as handle:
        if new:
            handle.write(header)
        handle.write(f"{mutant_id}\t{result}\t{by}\t{seconds:.0f}\n")


def area(mutant_id):
    parts = mutant_id.split(".")
    return parts[1] if mutant_id.startswith("g.") else parts[0]


def summary_by_area(rows, equivalents):
    """Killed over (judged less equivalent), by area of the decision code."""
    table = {}
    for mutant_id, result in rows:
        if result not in ("killed", "survived", "equivalent"):
            continue
        counts = table.setdefault(area(mutant_id), [0, 0, 0])
        if mutant_id in equivalents or result == "equivalent":
            counts[2] += 1
        elif result == "killed":
            counts[0] += 1
        else:
            counts[1] += 1
    lines = []
    total = [0, 0, 0]
    for name in sorted(table):
        killed, survived, equivalent = table[name]
        total = [total[0] + killed, total[1] + survived, total[2] + equivalent]
        lines.append(score_line(name, killed, survived, equivalent))
    lines.append(score_line("all", *total))
    return lines


def score_line(name, killed, survived, equivalent):
    judged = killed + survived
    score = 100.0 * killed / judged if judged else 100.0
    return f"  {name:15} {score:5.1f} %  {killed} killed, {survived} survived, {equivalent} equivalent"


class BaselineFailure(Exception):
    """The package fails its tests with no mutant applied: no mutant can be judged."""


def measure_lines(options):
    """The campaign's cache of the lines each suite executes, measured where missing."""
    lines_cache = os.path.join(options.scratch, "lines.json")
    if not os.path.exists(lines_cache) or options.measure_coverage:
        print("measuring which suites reach which lines (Scripts/mutation/coverage.py) ...", flush=True)
        subprocess.run(
            [sys.executable, os.path.join(MUTATION, "coverage.py"), "--lines", lines_cache,
             "--scratch", os.path.join(options.scratch, "coverage")], cwd=ROOT, check=True,
            stdout=subprocess.DEVNULL)
    return lines_cache


def campaign(options, workspace):
    """Judges the generated mutants in the seed's order, after those already judged, until `size` are judged (a
    mutant that does not compile is dropped and the next one drawn), appending each result as it comes."""
    os.makedirs(CAMPAIGNS, exist_ok=True)
    results_path = os.path.join(CAMPAIGNS, f"seed-{options.campaign}.tsv")
    suite_map = SuiteMap(workspace.source, measure_lines(options))
    equivalents = parse_equivalents()
    population = [m for m in swift_mutants.generate(workspace.source)
                  if not options.prefixes or any(m.id.startswith(p) for p in options.prefixes)]
    order = sample_order(population, options.campaign)
    drawn_from = f" whose id starts with {' or '.join(options.prefixes)}" if options.prefixes else ""
    header = (f"# Campaign of seed {options.campaign}: generated mutants{drawn_from} in the order of "
              f"sha1('{options.campaign}:id'), until {options.size} are judged; written by Scripts/mutate.py "
              f"--campaign.\n# id\tresult\tkilled by\tseconds\n")
    started = time.monotonic()
    judge = Judge(workspace, suite_map, use_schemata=not options.textual)
    while True:
        results = read_results(results_path)
        judged = sum(1 for m in order if results.get(m.id, ("",))[0] in ("killed", "survived"))
        if judged >= options.size:
            break
        if options.deadline and time.monotonic() - started > options.deadline:
            print("stopping at the deadline; run the same command again to go on", flush=True)
            break
        pending = [m for m in order if m.id not in results][:options.size - judged]
        if not pending:
            break
        # A mutant already listed as equivalent survives every time: recorded as such without a run of the suite.
        for mutant in pending:
            if mutant.id in equivalents:
                append_result(results_path, header, mutant.id, "equivalent", "listed in equivalent.txt", 0)
                print(f"equivalent {mutant.id} (listed)", flush=True)
        pending = [m for m in pending if m.id not in equivalents]
        if not pending:
            continue
        print(f"campaign {options.campaign}: {judged} of {options.size} judged; judging {len(pending)} more",
              flush=True)

        def report(kind, mutant, result, by, seconds):
            append_result(results_path, header, mutant.id, result, by, seconds)
            print(f"{result} {mutant.id}" + (f" by {by}" if by else "") + f" ({seconds:.0f} s)", flush=True)

        judge.judge([("generated", m) for m in pending], report)
    results = read_results(results_path)
    sampled = [(m.id, results[m.id][0]) for m in order if m.id in results]
    print(f"campaign {options.campaign}: run time {time.monotonic() - started:.0f} s this run")
    for line in summary_by_area(sampled, equivalents):
        print(line)
    return 0


def recheck(options, workspace):
    """Judges a campaign's survivors again against today's tests, into seed-N-recheck.tsv."""
    results_path = os.path.join(CAMPAIGNS, f"seed-{options.recheck}.tsv")
    recheck_path = os.path.join(CAMPAIGNS, f"seed-{options.recheck}-recheck.tsv")
    results = read_results(results_path)
    equivalents = parse_equivalents()
    generated = generated_by_id(workspace.source)
    survivors = [mutant_id for mutant_id, row in results.items() if row[0] == "survived"]
    suite_map = SuiteMap(workspace.source, measure_lines(options))
    if os.path.exists(recheck_path):
        os.remove(recheck_path)
    header = (f"# The survivors of campaign {options.recheck} judged again against the tests of today; written by "
              f"Scripts/mutate.py --recheck.\n# id\tresult\tkilled by\tseconds\n")
    failures = 0
    items = []
    for mutant_id in survivors:
        if mutant_id in equivalents:
            append_result(recheck_path, header, mutant_id, "equivalent", "", 0)
            print(f"equivalent {mutant_id}: {equivalents[mutant_id][0]}", flush=True)
        elif mutant_id not in generated:
            append_result(recheck_path, header, mutant_id, "error", "no longer generated", 0)
            print(f"error {mutant_id}: no longer generated from the code", flush=True)
            failures += 1
        else:
            items.append(("generated", generated[mutant_id]))

    def report(kind, mutant, result, by, seconds):
        nonlocal failures
        append_result(recheck_path, header, mutant.id, result, by, seconds)
        print(f"{result} {mutant.id}" + (f" by {by}" if by else ""), flush=True)
        failures += result != "killed"

    Judge(workspace, suite_map, use_schemata=not options.textual).judge(items, report)
    after = read_results(recheck_path)
    rows = []
    for mutant_id, (result, _, _) in results.items():
        if result == "survived":
            result = after.get(mutant_id, ("survived",))[0]
            result = "survived" if result == "equivalent" else result
        if result in ("killed", "survived"):
            rows.append((mutant_id, result))
    print(f"campaign {options.recheck} after the new tests:")
    for line in summary_by_area(rows, equivalents):
        print(line)
    return 1 if failures else 0


# A line of a campaign's results that starts with this marks where its tests changed: the mutants above it were
# judged against the tests before the rows written for the campaign's survivors, those below it after them.
AFTER_MARKER = "# after:"


def scores(seed):
    """Prints campaign `seed`'s scores by area, from its results and its recheck: as first judged (and, where the
    results hold the after marker, for the mutants judged before it alone), then with each survivor as judged again."""
    results_path = os.path.join(CAMPAIGNS, f"seed-{seed}.tsv")
    if not os.path.exists(results_path):
        print(f"error: no results for campaign {seed} ({os.path.relpath(results_path, ROOT)})")
        return 1
    equivalents = parse_equivalents()
    first, before, later, marked = [], [], [], False
    with open(results_path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith(AFTER_MARKER):
                marked = True
            if line.startswith("#") or not line.strip():
                continue
            mutant_id, result = line.rstrip("\n").split("\t")[:2]
            first.append((mutant_id, result))
            (later if marked else before).append((mutant_id, result))
    recheck_path = os.path.join(CAMPAIGNS, f"seed-{seed}-recheck.tsv")
    again = read_results(recheck_path)
    sections = [(f"campaign {seed}, {len(first)} rows, as first judged:", first)]
    if marked:
        sections.append((f"campaign {seed}, the {len(before)} rows judged before its new tests:", before))
        sections.append((f"campaign {seed}, the {len(later)} rows judged after them, as first judged (mutants no "
                         f"one had looked at, against tests written for others):", later))
    # A survivor judged again takes its new result; one the recheck skipped as equivalent stays a survivor here, and
    # summary_by_area counts it as equivalent from the list.
    after = [(mutant_id, again.get(mutant_id, ("survived",))[0].replace("equivalent", "survived")
              if result == "survived" else result) for mutant_id, result in first]
    sections.append((f"campaign {seed}, each survivor as judged again ({os.path.basename(recheck_path)}"
                     + ("" if again else ": none yet") + "):", after))
    for title, rows in sections:
        print(title)
        for line in summary_by_area(rows, equivalents):
            print(line)
    return 0


def differential(options, workspace):
    """Builds each mutant and compares what it decides on generated histories with what the original decides."""
    generated = generated_by_id(workspace.source)
    status, output = workspace.build(timeout=options.timeout * 4)
    if status != 0:
        print(output[-4000:])
        return 2
    original_digest = run_differential(workspace, "original")
    if original_digest is None:
        return 2
    print(f"original: {original_digest[1]} lines of decisions, digest {original_digest[0]}", flush=True)
    failures = 0
    for mutant_id in options.differential:
        mutant = generated.get(mutant_id)
        if mutant is None:
            print(f"error {mutant_id}: not generated from the code")
            failures += 1
            continue
        path = os.path.join(workspace.source, mutant.file)
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
        try:
            write(path, swift_mutants.apply(mutant, source))
            status, output = workspace.build()
            if status != 0:
                print(f"error {mutant_id}: does not build")
                failures += 1
                continue
            digest = run_differential(workspace, mutant_id)
        finally:
            write(path, source)
        if digest is None:
            failures += 1
        elif digest[0] == original_digest[0]:
            print(f"same {mutant_id}: decides as the original on all {digest[1]} lines of decisions (digest {digest[0]})")
        else:
            print(f"differs {mutant_id}: {digest[2]}")
            failures += 1
    return 1 if failures else 0


def run_differential(workspace, name):
    """(digest, count, first difference) of what the build in the workspace decides on the differential histories."""
    out = os.path.join(workspace.scratch, f"differential-{re.sub(r'[^A-Za-z0-9._-]', '_', name)}.txt")
    env = dict(os.environ, MUTATION_DIFFERENTIAL_OUT=out)
    status, output = workspace.test(include=[DIFFERENTIAL_SUITE], env=env, timeout=workspace.timeout * 2)
    if status != 0 or not os.path.exists(out):
        print(output[-3000:])
        print(f"error {name}: the differential check did not run")
        return None
    with open(out, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    original = os.path.join(workspace.scratch, "differential-original.txt")
    first = ""
    if name != "original" and os.path.exists(original):
        with open(original, encoding="utf-8") as handle:
            reference = handle.read().splitlines()
        for mine, theirs in zip(lines, reference):
            if mine != theirs:
                first = f"first differs at {mine.split(chr(9))[0]}"
                break
    digest = hashlib.sha1("\n".join(lines).encode()).hexdigest()[:16]
    return digest, len(lines), first


def run_ci(options, workspace, hand, generated_ids):
    """The hand catalogue and the fixed list of generated mutants, as CI runs them."""
    started = time.monotonic()
    equivalents = parse_equivalents()
    generated = generated_by_id(workspace.source)
    errors = {m.id: problem for m in hand if (problem := pattern_error(m, workspace.source))}
    for mutant_id in generated_ids:
        if mutant_id not in generated and mutant_id not in equivalents:
            errors[mutant_id] = ("no longer generated from the code: draw a fresh sample of the changed file "
                                 "(docs/testing.md) and update Scripts/mutation/ci.txt")
    counts = {"killed": 0, "survived": 0, "equivalent": 0, "error": 0, "uncompilable": 0}
    rows = []

    def report(kind, mutant, result, by, seconds):
        if result == "uncompilable":
            result, by = "error", "the mutant no longer compiles: take it off Scripts/mutation/ci.txt"
        counts[result] += 1
        rows.append((mutant.id, result))
        print(f"{result} {mutant.id}" + (f" by {by}" if result == "killed" else f": {by}" if by else "")
              + (f" ({seconds:.0f} s)" if seconds >= 1 else ""), flush=True)

    items = []
    for mutant in hand:
        if mutant.id in errors:
            report("hand", mutant, "error", errors[mutant.id], 0)
        elif mutant.equivalent:
            report("hand", mutant, "equivalent", mutant.equivalent, 0)
        else:
            items.append(("hand", mutant))
    for mutant_id in generated_ids:
        if mutant_id in errors:
            counts["error"] += 1
            rows.append((mutant_id, "error"))
            print(f"error {mutant_id}: {errors[mutant_id]}", flush=True)
        elif mutant_id in equivalents:
            counts["equivalent"] += 1
            print(f"equivalent {mutant_id}: {equivalents[mutant_id][0]}", flush=True)
        else:
            items.append(("generated", generated[mutant_id]))
    Judge(workspace, SuiteMap(workspace.source), use_schemata=not options.textual,
          first_suites=parse_first_suites(), verify_after=True).judge(items, report)
    judged = counts["killed"] + counts["survived"]
    score = 100.0 * counts["killed"] / judged if judged else 100.0
    elapsed = time.monotonic() - started
    print(
        f"mutation score {score:.1f} %: {counts['killed']} killed, {counts['survived']} survived, "
        f"{counts['equivalent']} equivalent, {counts['error']} errors, of {len(hand) + len(generated_ids)} mutants "
        f"({len(hand)} hand, {len(generated_ids)} generated); run time {int(elapsed // 60)} min "
        f"{int(elapsed % 60)} s")
    for line in summary_by_area(rows, set()):
        print(line)
    return 1 if counts["survived"] or counts["error"] else 0


def check(hand, generated_ids):
    """Every hand pattern matches once, every listed id is generated, every equivalent is generated."""
    errors = 0
    for mutant in hand:
        if problem := pattern_error(mutant, ROOT):
            print(f"error {mutant.id}: {problem}")
            errors += 1
    generated = generated_by_id()
    for mutant_id in generated_ids:
        if mutant_id not in generated:
            print(f"error {mutant_id}: listed in Scripts/mutation/ci.txt, no longer generated from the code")
            errors += 1
    for mutant_id in parse_equivalents():
        if mutant_id not in generated:
            print(f"error {mutant_id}: listed in Scripts/mutation/equivalent.txt, no longer generated from the code")
            errors += 1
        if mutant_id in generated_ids:
            print(f"error {mutant_id}: listed both in Scripts/mutation/ci.txt and as equivalent")
            errors += 1
    print(f"checked {len(hand)} hand mutants, {len(generated_ids)} listed generated mutants and "
          f"{len(parse_equivalents())} equivalents of {len(generated)} generated: {errors} errors")
    return 1 if errors else 0


def main():
    parser = argparse.ArgumentParser(description="Runs mutants of the decision code against the tests.")
    parser.add_argument("prefixes", nargs="*", help="run only the mutants whose id starts with one of these")
    parser.add_argument("--check", action="store_true", help="only check that every pattern and id still matches")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--campaign", type=int, metavar="SEED", help="run a seeded sample of the generated mutants")
    parser.add_argument("--size", type=int, default=400, help="with --campaign: how many to judge (default 400)")
    parser.add_argument("--deadline", type=int, help="with --campaign: stop after this many seconds")
    parser.add_argument("--measure-coverage", action="store_true", help="with --campaign: measure coverage again")
    parser.add_argument("--recheck", type=int, metavar="SEED", help="judge campaign SEED's survivors again")
    parser.add_argument("--scores", type=int, metavar="SEED", help="print campaign SEED's scores by area")
    parser.add_argument("--ids", nargs="+", metavar="ID", help="run these generated mutants")
    parser.add_argument("--differential", nargs="+", metavar="ID", help="compare these mutants' decisions")
    parser.add_argument(
        "--scratch", default=os.environ.get("MUTATE_SCRATCH")
        or os.path.join(tempfile.gettempdir(), "familyentitlements-mutants"),
        help="scratch folder kept between runs (default: $MUTATE_SCRATCH or the temporary folder)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds allowed for one build or one test run")
    parser.add_argument(
        "--textual", action="store_true",
        help="apply and build every mutant on its own, without schemata (slower; for checking the schemata)")
    options = parser.parse_args()

    try:
        hand = parse_catalogue(CATALOGUE)
        listed = parse_list()
        parse_equivalents()
    except (ValueError, OSError) as error:
        print(f"error: {error}")
        return 1
    if options.prefixes and options.campaign is None:
        hand = [m for m in hand if any(m.id.startswith(p) for p in options.prefixes)]
        listed = [i for i in listed if any(i.startswith(p) for p in options.prefixes)]
        if not hand and not listed:
            print("error: no mutant matches " + " ".join(options.prefixes))
            return 1
    if options.check:
        return check(hand, listed)
    if options.scores is not None:
        return scores(options.scores)
    if options.list:
        for mutant in hand:
            print(f"{mutant.id}  {mutant.file}  {mutant.find!r} -> {mutant.replace!r}")
        generated = generated_by_id()
        for mutant_id in listed:
            mutant = generated.get(mutant_id)
            print(f"{mutant_id}  " + (f"{mutant.file}:{mutant.line}  {mutant.original!r} -> {mutant.mutated!r}"
                                      if mutant else "(no longer generated)"))
        return 0

    workspace = Workspace(options.scratch, options.timeout)
    if not workspace.acquire():
        print(f"error: another run is using {options.scratch}; pass --scratch for a folder of its own")
        return 2
    try:
        return dispatch(options, workspace, hand, listed)
    except BaselineFailure as failure:
        print(f"error: {failure}; mutants cannot be judged")
        return 2
    finally:
        workspace.restore()


def dispatch(options, workspace, hand, listed):
    if options.campaign is not None:
        return campaign(options, workspace)
    if options.recheck is not None:
        return recheck(options, workspace)
    if options.differential:
        return differential(options, workspace)
    if options.ids:
        generated = generated_by_id(workspace.source)
        missing = [mutant_id for mutant_id in options.ids if mutant_id not in generated]
        for mutant_id in missing:
            print(f"error {mutant_id}: not generated from the code")
        suite_map = SuiteMap(workspace.source, os.path.join(options.scratch, "lines.json"))
        failures = len(missing)

        def report(kind, mutant, result, by, seconds):
            nonlocal failures
            print(f"{result} {mutant.id}" + (f" by {by}" if by else "") + f" ({seconds:.0f} s)", flush=True)
            failures += result != "killed"

        items = [("generated", generated[i]) for i in options.ids if i in generated]
        Judge(workspace, suite_map, use_schemata=not options.textual).judge(items, report)
        return 1 if failures else 0
    return run_ci(options, workspace, hand, listed)


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
