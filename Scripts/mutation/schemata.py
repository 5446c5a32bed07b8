"""Mutant schemata: many mutants compiled into one build, each switched on at run time.

A mutant that changes one expression becomes `(__mutant(n) ? (mutated) : (original))`, where `__mutant(n)` is true
only while the environment variable FAMILYENTITLEMENTS_MUTANT is n; a mutant that deletes a statement becomes
`if !__mutant(n) { statement }`. One build then judges every such mutant with a test run alone, instead of an
incremental build each (about 1.5 s instead of 7 on a 2-core machine). The code a mutant runs is exactly its textual
version's: the expression or statement it changes is the one switched, nothing around it.

Mutants whose change spans more than one expression, or that the compiler refuses in this form, are left to the
textual way (`Scripts/mutate.py` applies them one by one). Only the scratch copy is ever changed.
"""

import os
import re

import swift_mutants

SWITCH_FILE = "Sources/FamilyEntitlements/MutantSwitch.swift"
SWITCH_SOURCE = """// Written by Scripts/mutation/schemata.py into the scratch copy of a mutation run; never part of the package.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The mutant switched on for this process, from FAMILYENTITLEMENTS_MUTANT; -1 for none.
let activeMutant: Int = getenv("FAMILYENTITLEMENTS_MUTANT").flatMap { Int(String(cString: $0)) } ?? -1

/// Whether mutant `number` is switched on.
@inline(__always)
func __mutant(_ number: Int) -> Bool { number == activeMutant }
"""
VARIABLE = "FAMILYENTITLEMENTS_MUTANT"


class Schema:
    """A mutant that a schema can switch: its number, and where and how it changes its file."""

    def __init__(self, mutant_id, path, number, kind, start, end, alternative=None):
        self.id, self.path, self.number = mutant_id, path, number
        self.kind, self.start, self.end, self.alternative = kind, start, end, alternative


def render(source, schemas):
    """The source with every schema in it, and the schemas that could not be placed (overlapping in a way no single
    expression or statement holds). Also returns, for each placed schema, the lines it spans in the output."""
    regions = sorted((s for s in schemas if s.kind == "region"), key=lambda s: (s.start, -s.end))
    statements = sorted((s for s in schemas if s.kind == "statement"), key=lambda s: (s.start, -s.end))
    left_out = []
    # Overlapping regions become one: each alternative, widened to the union, changes only its own part.
    groups = []
    for schema in regions:
        if groups and schema.start < groups[-1]["end"]:
            group = groups[-1]
            if not (group["start"] <= schema.start and schema.end <= group["end"]):
                if schema.start < group["start"] or schema.end > group["end"]:
                    # Partly overlapping: the union may be no expression at all.
                    left_out.append(schema)
                    continue
            group["members"].append(schema)
        else:
            groups.append({"start": schema.start, "end": schema.end, "members": [schema]})
    placed_statements = []
    for schema in statements:
        clash = any(
            not (schema.end <= g["start"] or g["end"] <= schema.start)
            and not (schema.start <= g["start"] and g["end"] <= schema.end) for g in groups)
        overlap = any(not (schema.end <= other.start or other.end <= schema.start) for other in placed_statements)
        if clash or overlap:
            left_out.append(schema)
        else:
            placed_statements.append(schema)
    edits = [("region", g["start"], g["end"], g) for g in groups]
    edits += [("statement", s.start, s.end, s) for s in placed_statements]
    edits.sort(key=lambda e: (e[1], -e[2]))
    spans = {}

    def widen(schema, group):
        return source[group["start"]:schema.start] + schema.alternative + source[schema.end:group["end"]]

    def emit(low, high, inner, base):
        """source[low:high] with the edits in `inner` (sorted) applied; `base` is where the result starts in the
        whole output, so that each placed schema's span is known there."""
        out, cursor, written = [], low, 0
        index = 0
        while index < len(inner):
            kind, start, end, payload = inner[index]
            nested = []
            index += 1
            while index < len(inner) and inner[index][1] < end:
                nested.append(inner[index])
                index += 1
            out.append(source[cursor:start])
            written += len(out[-1])
            if kind == "region":
                original = source[start:end]
                chain = "".join(f"__mutant({m.number}) ? ({widen(m, payload)}) : " for m in payload["members"])
                piece = f"({chain}({original}))"
                members = payload["members"]
            else:
                opening = f"if !__mutant({payload.number}) {{ "
                piece = opening + emit(start, end, nested, base + written + len(opening)) + " }"
                members = [payload]
            for member in members:
                spans[member.id] = (base + written, base + written + len(piece))
            out.append(piece)
            written += len(piece)
            cursor = end
        out.append(source[cursor:high])
        return "".join(out)

    text = emit(0, len(source), edits, 0)
    lines = {}
    for mutant_id, (start, end) in spans.items():
        lines[mutant_id] = (text.count("\n", 0, start) + 1, text.count("\n", 0, end) + 1)
    return text, left_out, lines


def schemas_of_generated(mutants, first_number=0):
    """Schemas of generated mutants (whose `schema` the generator set), numbered from `first_number`."""
    result = []
    for number, mutant in enumerate(mutants, start=first_number):
        if mutant.schema is None:
            continue
        if mutant.schema[0] == "statement":
            result.append(Schema(mutant.id, mutant.file, number, "statement", mutant.schema[1], mutant.schema[2]))
        else:
            _, low, high, alternative = mutant.schema
            result.append(Schema(mutant.id, mutant.file, number, "region", low, high, alternative))
    return result


def schema_of_hand(mutant, source, number):
    """The schema of a hand mutant (find and replace), where its change stays inside one expression."""
    start = source.find(mutant.find)
    if start < 0 or source.count(mutant.find) != 1:
        return None
    # The smallest change: the common prefix and suffix of the snippet and its replacement are not part of it.
    find, replace = mutant.find, mutant.replace
    prefix = 0
    while prefix < min(len(find), len(replace)) and find[prefix] == replace[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(find), len(replace)) - prefix and find[-1 - suffix] == replace[-1 - suffix]:
        suffix += 1
    # Widen to whole tokens: the change starts at a token's start.
    change_start, change_end = start + prefix, start + len(find) - suffix
    replacement = replace[prefix:len(replace) - suffix]
    mutator = swift_mutants.FileMutator(mutant.file, source)
    token_starts = [token.start for token in mutator.tokens]
    token_ends = {token.end for token in mutator.tokens}
    while change_start > 0 and change_start not in token_starts:
        change_start -= 1
        replacement = source[change_start] + replacement
    while change_end < len(source) and change_end not in token_ends:
        replacement = replacement + source[change_end]
        change_end += 1
    schema = mutator.schema_for_change(change_start, change_end, replacement)
    if schema is None:
        return None
    _, low, high, alternative = schema
    return Schema(mutant.id, mutant.file, number, "region", low, high, alternative)


ERROR = re.compile(r"^(/[^:]+\.swift):(\d+):\d+: error:", re.M)


def culprits(errors, lines):
    """The schemas to leave out for the compiler's errors: each error's schema, or, where the error points next to
    one (a switch refused for a pattern changed below it), the nearest schema of its file."""
    found = set()
    for path, line in errors:
        placed = lines.get(path, {})
        inside = [mutant_id for mutant_id, (low, high) in placed.items() if low <= line <= high]
        if inside:
            found.update(inside)
        elif placed:
            found.add(min(placed, key=lambda mutant_id: min(abs(placed[mutant_id][0] - line),
                                                            abs(placed[mutant_id][1] - line))))
    return found


def failing_lines(output, source_root):
    """The (file relative to the package, line) of each compiler error in a build's output."""
    found = set()
    for match in ERROR.finditer(output):
        path = os.path.relpath(os.path.realpath(match.group(1)), os.path.realpath(source_root))
        found.add((path, int(match.group(2))))
    return found
