"""Mutant schemata: many mutants compiled into one build, each switched on at run time.

A mutant that changes one expression becomes `(__mutant(n) ? (mutated) : (original))`, where `__mutant(n)` is true
only while the environment variable FAMILYENTITLEMENTS_MUTANT is n; a mutant that deletes a statement becomes
`if !__mutant(n) { statement }`. One build then judges every such mutant with a test run alone, instead of an
incremental build each (about 1.5 s instead of 7 on a 2-core machine). The code a mutant runs is exactly its textual
version's: the expression or statement it changes is the one switched, nothing around it.

A hand mutant (any find and replace) is switched the same way where its change stays inside one expression; else the
whole snippet, where it stands alone as an expression; else the whole statements around it, as a pair of branches
(`if __mutant(n) { mutated } else { original }`). Each file is parsed with its schemata before the build; a schema
that leaves it unparsable, or that the compiler refuses, is left to the textual way (`Scripts/mutate.py` applies it
on its own). Only the scratch copy is ever changed.
"""

import os
import re
import subprocess

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
        # Statements may hold one another whole; a partial overlap is no statement at all.
        overlap = any(
            not (schema.end <= other.start or other.end <= schema.start)
            and not (schema.start <= other.start and other.end <= schema.end)
            and not (other.start <= schema.start and schema.end <= other.end) for other in placed_statements)
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
            elif payload.alternative is not None:
                # Whole statements switched as a pair of branches: the mutant's text, or the original with the
                # schemata nested in it.
                opening = f"if __mutant({payload.number}) {{\n{payload.alternative}\n}} else {{\n"
                piece = opening + emit(start, end, nested, base + written + len(opening)) + "\n}"
                members = [payload]
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
    """The schema of a hand mutant (find and replace): the expression its change stays inside, else the whole snippet
    where it stands alone as an expression, else the whole statements around the change, switched as a pair of
    branches. A schema the parser or the compiler refuses is left to the textual way."""
    start = source.find(mutant.find)
    if start < 0 or source.count(mutant.find) != 1:
        return None
    end = start + len(mutant.find)
    mutator = swift_mutants.FileMutator(mutant.file, source)
    if not mutant.replace.strip():
        # A deleted statement, or several: whole lines, switched off as a generated deletion is.
        line_start = source.rfind("\n", 0, start) + 1
        if not source[line_start:start].strip() and source[end:end + 1] in ("\n", ""):
            return Schema(mutant.id, mutant.file, number, "statement", start, end)
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
    token_starts = {token.start for token in mutator.tokens}
    token_ends = {token.end for token in mutator.tokens}
    while change_start > 0 and change_start not in token_starts:
        change_start -= 1
        replacement = source[change_start] + replacement
    while change_end < len(source) and change_end not in token_ends:
        replacement = replacement + source[change_end]
        change_end += 1
    # Every bracket the change opens or closes, with its partner: the change is then balanced.
    inside = [index for index, token in enumerate(mutator.tokens) if change_start <= token.start < change_end]
    low_token = min([mutator.partner.get(index, index) for index in inside] + inside, default=None)
    high_token = max([mutator.partner.get(index, index) for index in inside] + inside, default=None)
    if low_token is not None:
        low, high = mutator.tokens[low_token].start, mutator.tokens[high_token].end
        if low < change_start or high > change_end:
            replacement = source[low:change_start] + replacement + source[change_end:high]
            change_start, change_end = low, high
    # A parenthesised group that is no call's arguments keeps its precedence whatever it holds.
    opening = mutator.token_at(change_start)
    if opening and mutator.tokens[opening].text == "(":
        closing, previous = mutator.partner.get(opening), mutator.tokens[opening - 1]
        if (closing is not None and mutator.tokens[closing].end == change_end and previous.kind in ("op", "punct")
                and previous.text not in (")", "]") and is_expression(replacement)):
            return Schema(mutant.id, mutant.file, number, "region", change_start, change_end, replacement)
    schema = mutator.schema_for_change(change_start, change_end, replacement)
    if schema is not None:
        _, low, high, alternative = schema
        if is_expression(source[low:high]) and is_expression(alternative):
            return Schema(mutant.id, mutant.file, number, "region", low, high, alternative)
    # The whole snippet, where it stands alone as an expression: after an assignment, `return`, an opening bracket, a
    # comma or a ternary's colon, and before a closing bracket, a comma or the line's end, or as the whole condition
    # of an if, guard or while, so that the parentheses around it change no precedence.
    before = source[:start].rstrip()
    after = source[end:].lstrip(" ")
    condition = before.endswith((" if", " guard", " while", ",")) and after.startswith(("{", "else", ","))
    if (condition or before.endswith(("=", "(", "[", "{", ",", ":", " return"))
            and not before.endswith(("==", "!=", "<=", ">=")) and after.startswith((")", "]", "}", ",", "\n"))) and (
            is_expression(find) and is_expression(replace)):
        return Schema(mutant.id, mutant.file, number, "region", start, end, replace)
    low, high = statement_span(mutator, start, end)
    if low is None:
        return None
    mutated = source[low:start] + replace + source[end:high]
    return Schema(mutant.id, mutant.file, number, "statement", low, high, mutated)


STATEMENT_WORDS = {"let", "var", "return", "continue", "break", "in", "guard", "if", "else", "while", "for", "switch",
                   "case", "default", "throw", "_"}
DECLARATION_WORDS = {"let", "var", "func", "case", "default", "init", "struct", "enum", "class", "extension",
                     "private", "fileprivate", "public", "internal", "static", "@"}


def is_expression(text):
    """Whether `text` reads as one expression that parentheses may wrap: balanced, and with no statement keyword,
    comma or block at its top level (a closure inside brackets may hold anything)."""
    try:
        tokens = swift_mutants.tokenize(text)
        swift_mutants.matching(tokens)
    except swift_mutants.LexError:
        return False
    depth = 0
    for token in tokens:
        if token.kind == "punct" and token.text in swift_mutants.OPEN:
            if depth == 0 and token.text == "{":
                return False
            depth += 1
        elif token.kind == "punct" and token.text in swift_mutants.CLOSE:
            depth -= 1
        elif depth == 0 and (token.text in STATEMENT_WORDS or token.text in (",", ";")):
            return False
    return bool(tokens)


def statement_span(mutator, start, end):
    """The whole lines around source[start:end] that make complete statements: every bracket opened in them closed in
    them, no line continuing another, no `else` left behind. (None, None) where they would declare a name (the
    branch would hide it from what follows)."""
    tokens, partner, source = mutator.tokens, mutator.partner, mutator.source
    inside = [index for index, token in enumerate(tokens) if token.end > start and token.start < end]
    if not inside:
        return None, None

    def line_first(index):
        while index > 0 and not tokens[index].newline_before:
            index -= 1
        return index

    def line_last(index):
        while index + 1 < len(tokens) and not tokens[index + 1].newline_before:
            index += 1
        return index

    def continues(index):
        # The line of token `index` goes on with the line before it; a block's `{` or a case's `:` ends a line.
        previous = tokens[index - 1]
        if previous.text in ("{", ":") and previous.kind == "punct":
            return False
        return mutator.continues(index)

    low, high = line_first(inside[0]), line_last(inside[-1])
    changed = True
    while changed:
        changed = False
        if tokens[low].text in ("case", "default"):
            # A case of a switch: the whole switch.
            depth, index = 0, low - 1
            while index >= 0 and not (tokens[index].text == "{" and depth == 0):
                depth += {"}": 1, "{": -1}.get(tokens[index].text, 0) if tokens[index].kind == "punct" else 0
                index -= 1
            if index < 0:
                return None, None
            low, high, changed = line_first(index), max(high, line_last(partner[index])), True
            continue
        for index in range(low, high + 1):
            other = partner.get(index)
            if other is not None and other < low:
                low, changed = line_first(other), True
                break
            if other is not None and other > high:
                high, changed = line_last(other), True
                break
        if changed:
            continue
        if low > 0 and (continues(low) or tokens[low].text in ("else", "catch")):
            low, changed = line_first(low - 1), True
        elif high + 1 < len(tokens) and (continues(high + 1) or tokens[high + 1].text in ("else", "catch")):
            high, changed = line_last(high + 1), True
    depth = 0
    for index in range(low, high + 1):
        token = tokens[index]
        if token.kind == "punct" and token.text in swift_mutants.OPEN:
            depth += 1
        elif token.kind == "punct" and token.text in swift_mutants.CLOSE:
            depth -= 1
        elif depth == 0 and (index == low or token.newline_before) and (
                token.text in DECLARATION_WORDS or token.text.startswith("@")):
            return None, None
    line_start = source.rfind("\n", 0, tokens[low].start) + 1
    return line_start, tokens[high].end


def parses(text, scratch):
    """Whether `text` is Swift the parser accepts (`swiftc -parse`, a tenth of a second, no type checking)."""
    path = os.path.join(scratch, "ParseCheck.swift")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    result = subprocess.run(["swiftc", "-parse", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return result.returncode == 0


def unparsable(source, schemas, scratch):
    """The schemas of one file that leave it unparsable: none where the file with all of them parses, else each one
    that fails alone. A syntax error would otherwise hide the type errors that name the other culprits."""
    text, _, _ = render(source, schemas)
    if parses(text, scratch):
        return set()
    return {schema.id for schema in schemas if not parses(render(source, [schema])[0], scratch)}


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
