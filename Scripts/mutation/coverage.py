"""Which test suites execute which lines of the decision code, measured with the toolchain's code coverage.

    python3 Scripts/mutation/coverage.py              measures every suite and rewrites Scripts/mutation/suites.json
    python3 Scripts/mutation/coverage.py --lines F    also writes each suite's executed lines to F (a cache)

`suites.json` maps each source file in scope to the suites that execute any of its lines, fastest first, with each
suite's run time: `Scripts/mutate.py` runs those suites first for a mutant of the file, and the rest of the suite only
for a mutant that survives them. The line cache lets a campaign skip the suites that never reach a mutated line.
Run it again after adding a suite or moving code between files; a suite missing from the map is still run for every
survivor, so a stale map costs time, never a verdict.
"""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import swift_mutants  # noqa: E402

ROOT = swift_mutants.ROOT
MAP = os.path.join(ROOT, "Scripts", "mutation", "suites.json")
TEST_MODULE = "FamilyEntitlementsTests"


def suites(scratch):
    """The test suites of the package, by type name."""
    output = subprocess.run(
        ["swift", "test", "list", "--skip-build", "--scratch-path", scratch], cwd=ROOT, capture_output=True,
        text=True, check=True).stdout
    names = set()
    for line in output.splitlines():
        if line.startswith(TEST_MODULE + "."):
            names.add(line[len(TEST_MODULE) + 1:].split("/")[0])
    return sorted(names)


def executed_lines(file_entry):
    """The lines of one file of an llvm-cov export that ran at least once."""
    segments = file_entry["segments"]
    executed, wrapped = set(), None
    by_line = {}
    for segment in segments:
        by_line.setdefault(segment[0], []).append(segment)
    last = max(by_line) if by_line else 0
    for line in range(1, last + 1):
        starting = by_line.get(line, [])
        counts = [wrapped] if wrapped is not None else []
        counts += [s[2] for s in starting if s[3] and s[4] and not s[5]]
        if counts and max(counts) > 0:
            executed.add(line)
        if starting:
            final = starting[-1]
            wrapped = final[2] if final[3] else None
    return executed


def ranges(lines):
    """Sorted line numbers as [first, last] runs, to keep the cache small."""
    result = []
    for line in sorted(lines):
        if result and result[-1][1] == line - 1:
            result[-1][1] = line
        else:
            result.append([line, line])
    return result


def digest(path):
    with open(os.path.join(ROOT, path), "rb") as handle:
        return hashlib.sha1(handle.read()).hexdigest()


def main():
    parser = argparse.ArgumentParser(description="Measures which suites execute which lines of the decision code.")
    parser.add_argument("--scratch", default=os.path.join(tempfile.gettempdir(), "familyentitlements-coverage"))
    parser.add_argument("--lines", help="also write each suite's executed lines of every file in scope here")
    options = parser.parse_args()
    print("building with code coverage ...", flush=True)
    subprocess.run(
        ["swift", "build", "--build-tests", "--enable-code-coverage", "--scratch-path", options.scratch], cwd=ROOT,
        check=True, stdout=subprocess.DEVNULL)
    in_scope = set(swift_mutants.scope_files())
    timings, files, lines = {}, {}, {}
    codecov = None
    for suite in suites(options.scratch):
        if codecov and os.path.isdir(codecov):
            shutil.rmtree(codecov)
        started = time.monotonic()
        run = subprocess.run(
            ["swift", "test", "--skip-build", "--enable-code-coverage", "--scratch-path", options.scratch,
             "--filter", f"^{TEST_MODULE}\\.{suite}/"], cwd=ROOT, capture_output=True, text=True)
        timings[suite] = round(time.monotonic() - started, 2)
        if run.returncode != 0:
            print(run.stdout[-3000:] + run.stderr[-3000:])
            print(f"error: {suite} fails without any mutant")
            return 2
        path = subprocess.run(
            ["swift", "test", "--show-codecov-path", "--scratch-path", options.scratch], cwd=ROOT,
            capture_output=True, text=True, check=True).stdout.strip()
        codecov = os.path.dirname(path)
        with open(path, encoding="utf-8") as handle:
            export = json.load(handle)
        reached = 0
        for entry in export["data"][0]["files"]:
            relative = os.path.relpath(os.path.realpath(entry["filename"]), os.path.realpath(ROOT))
            if relative not in in_scope:
                continue
            executed = executed_lines(entry)
            if executed:
                reached += 1
                files.setdefault(relative, []).append(suite)
                lines.setdefault(relative, {})[suite] = ranges(executed)
        print(f"{suite}: {timings[suite]} s, reaches {reached} files in scope", flush=True)
    document = {
        "comment": "Written by Scripts/mutation/coverage.py: the suites that execute each file of the decision code, "
                   "fastest first, and each suite's run time in seconds on the machine that measured it.",
        "suites": dict(sorted(timings.items())),
        "files": {path: sorted(names, key=lambda name: (timings[name], name)) for path, names in sorted(files.items())},
    }
    with open(MAP, "w", encoding="utf-8") as handle:
        json.dump(document, handle, indent=1)
        handle.write("\n")
    print(f"wrote {os.path.relpath(MAP, ROOT)}: {len(files)} of {len(in_scope)} files reached")
    if options.lines:
        cache = {"files": {path: {"sha1": digest(path), "suites": suites_lines}
                           for path, suites_lines in lines.items()}}
        with open(options.lines, "w", encoding="utf-8") as handle:
            json.dump(cache, handle)
        print(f"wrote {options.lines}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
