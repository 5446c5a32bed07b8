"""Generates mutants of Swift sources by operator, the way PIT and Stryker do: every non-comment line of the decision
code is read as tokens, and each operator proposes the slips it can make there.

A mutant's id is keyed on the file, the operator, the mutated token and a hash of its normalised line (comments
dropped, whitespace collapsed, the mutated span marked), never on a line number or a count of occurrences, so that a
result recorded for it still applies after unrelated edits. Where one file holds the same line twice, the hash takes
in the neighbouring lines too.

Only the Python standard library is used. `python3 Scripts/mutation/swift_mutants.py --list` prints every mutant in
scope; `--count` the number by operator and area.
"""

import argparse
import hashlib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The decision code: where a slip changes who may use what. Decoding, payloads and values are held by the
# differential tests against JSONDecoder and by the fuzzers instead.
SCOPE = ["Rebuild", "Rebuild/Storage", "Report", "Rules", "Ledger", "Changes", "Intake", "Reconciliation", "Accounts", "History", "Money"]
SOURCES = "Sources/FamilyEntitlements"

OPERATORS = [
    "relational",  # < <=, > >=, == !=
    "logical",  # && ||
    "drop-operand",  # one operand of && or || dropped
    "drop-condition",  # one condition of an if, guard, while or where list dropped
    "negate",  # a condition, a prefix ! or an isEmpty negated
    "bool-literal",  # true false
    "nil-default",  # ?? true, ?? false
    "zero-one",  # 0 1 as a ternary's branch in a tie-break
    "min-max",  # min max
    "first-last",  # first last
    "sort-order",  # a sort's order reversed
    "ternary",  # a ternary's branches swapped
    "delete-statement",  # a statement that reports, rejects, hides, inserts or appends deleted
    "remove-jump",  # continue, break or an early return removed
    "instant-edge",  # a comparison with the rebuild's instant (RebuildInstant) swapped for its off-by-one twin
]

RELATIONAL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
# Time's home, RebuildInstant: each comparison with the instant and its twin that differs at the instant itself, as
# `relational` swaps `<=` for `<` where a rule wrote the comparison out.
INSTANT_EDGES = {"hasCome": "hasPassed", "hasEnded": "hasPassed", "precedes": "precedesOrIsAt",
                 "follows": "followsOrIsAt"}
SLUGS = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne", "&&": "and", "||": "or"}
STATEMENT_VERBS = {"report", "reject", "hide", "insert", "append", "formUnion"}
CONTROL = {"if", "else", "for", "while", "repeat"}
DECLARATIONS = {
    "func", "init", "subscript", "var", "let", "struct", "enum", "class", "extension", "protocol", "actor",
    "typealias", "associatedtype", "get", "set", "didSet", "willSet", "deinit"}
KEYWORD_BOUNDARIES = {
    "return", "if", "guard", "while", "where", "let", "var", "case", "else", "in", "throw", "for", "switch",
    "repeat", "defer", "do", "catch"}
BINARY_LIKE = {"&&", "||", "==", "!=", "<", "<=", ">", ">=", "??", "+", "-", "*", "/", "%", "=", "+=", "-=", "..<",
               "...", "->", "&", "|", "^"}
OPERATOR_CHARS = set("/=-+!*%<>&|^~?")
OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {")": "(", "]": "[", "}": "{"}


class Token:
    __slots__ = ("kind", "text", "start", "end", "line", "space_before", "space_after", "newline_before")

    def __init__(self, kind, text, start, end, line):
        self.kind, self.text, self.start, self.end, self.line = kind, text, start, end, line
        self.space_before = self.space_after = self.newline_before = False

    def __repr__(self):
        return f"{self.kind}:{self.text!r}@{self.line}"


class LexError(Exception):
    pass


def _string_end(source, i):
    """The end of the string literal starting at `i` (any `#` delimiters, one or three quotes, interpolations)."""
    hashes = 0
    while source[i] == "#":
        hashes += 1
        i += 1
    triple = source.startswith('"""', i)
    quote = '"""' if triple else '"'
    i += len(quote)
    closing = quote + "#" * hashes
    escape = "\\" + "#" * hashes
    while i < len(source):
        if source.startswith(escape, i):
            j = i + len(escape)
            if j < len(source) and source[j] == "(":
                depth, j = 1, j + 1
                while j < len(source) and depth:
                    c = source[j]
                    if c == '"' or (c == "#" and source.startswith('"', j + 1)):
                        j = _string_end(source, j)
                        continue
                    depth += {"(": 1, ")": -1}.get(c, 0)
                    j += 1
                i = j
            else:
                i = j + 1
            continue
        if source.startswith(closing, i):
            return i + len(closing)
        if not triple and source[i] == "\n":
            raise LexError("unterminated string")
        i += 1
    raise LexError("unterminated string")


def tokenize(source):
    """The tokens of a Swift source, comments and compiler directives left out; strings are single tokens."""
    tokens, i, line = [], 0, 1
    n = len(source)
    pending_space = pending_newline = False
    at_line_start = True
    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
            i += 1
            pending_space = pending_newline = True
            at_line_start = True
            continue
        if c in " \t\r":
            i += 1
            pending_space = True
            continue
        if source.startswith("//", i):
            while i < n and source[i] != "\n":
                i += 1
            pending_space = True
            continue
        if source.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if source.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif source.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if source[i] == "\n":
                        line += 1
                    i += 1
            pending_space = True
            continue
        if at_line_start and c == "#" and re.match(r"#(if|else|elseif|endif)\b", source[i:i + 8]):
            while i < n and source[i] != "\n":
                i += 1
            continue
        at_line_start = False
        start, start_line = i, line
        if c == '"' or (c == "#" and re.match(r'#+"', source[i:i + 8])):
            i = _string_end(source, i)
            kind = "string"
            line += source.count("\n", start, i)
        elif c.isalpha() or c == "_" or c == "$":
            i += 1
            while i < n and (source[i].isalnum() or source[i] == "_"):
                i += 1
            kind = "ident"
        elif c == "`":
            i = source.index("`", i + 1) + 1
            kind = "ident"
        elif c.isdigit():
            i += 1
            while i < n and (source[i].isalnum() or source[i] == "_" or
                             (source[i] == "." and i + 1 < n and source[i + 1].isdigit())):
                i += 1
            kind = "number"
        elif c in "@#":
            i += 1
            while i < n and (source[i].isalnum() or source[i] == "_"):
                i += 1
            kind = "attribute"
        elif c in "()[]{},:;\\":
            i += 1
            kind = "punct"
        elif c == ".":
            if source.startswith("..", i):
                i += 2
                while i < n and (source[i] in OPERATOR_CHARS or source[i] == "."):
                    i += 1
                kind = "op"
            else:
                i += 1
                kind = "punct"
        elif c in OPERATOR_CHARS:
            previous = source[i - 1] if i else " "
            if c in "?!" and not previous.isspace() and previous not in "([{,:" and previous not in OPERATOR_CHARS \
                    and not source.startswith("!=", i) and not source.startswith("??", i):
                i += 1
                kind = "postfix"
            else:
                while i < n and source[i] in OPERATOR_CHARS:
                    i += 1
                kind = "op"
        else:
            raise LexError(f"unexpected character {c!r} on line {line}")
        token = Token(kind, source[start:i], start, i, start_line)
        token.space_before = pending_space or not tokens
        token.newline_before = pending_newline or not tokens
        if tokens:
            tokens[-1].space_after = pending_space
        tokens.append(token)
        pending_space = pending_newline = False
    if tokens:
        tokens[-1].space_after = True
    return tokens


def matching(tokens):
    """The index of each bracket's partner."""
    partner, stack = {}, []
    for index, token in enumerate(tokens):
        if token.kind != "punct":
            continue
        if token.text in OPEN:
            stack.append(index)
        elif token.text in CLOSE:
            if not stack or tokens[stack[-1]].text != CLOSE[token.text]:
                raise LexError(f"unbalanced {token.text!r} on line {token.line}")
            opening = stack.pop()
            partner[opening], partner[index] = index, opening
    if stack:
        raise LexError("unbalanced brackets")
    return partner


class Mutant:
    __slots__ = ("id", "file", "operator", "token", "start", "end", "replacement", "line", "original", "mutated",
                 "schema")

    def __repr__(self):
        return f"{self.id}: line {self.line}: {self.original!r} -> {self.mutated!r}"


class FileMutator:
    def __init__(self, path, source):
        self.path, self.source = path, source
        self.tokens = tokenize(source)
        self.partner = matching(self.tokens)
        self.lines = source.split("\n")
        self.sites = []  # (operator, token, start, end, replacement)
        self.line_tokens = {}
        for index, token in enumerate(self.tokens):
            self.line_tokens.setdefault(token.line, []).append(index)
        self.skip_ranges = self._message_ternaries()

    # ---- helpers ----

    def add(self, operator, token, start, end, replacement, schema=None):
        """Proposes a mutant: source[start:end] becomes `replacement`. `schema` says how the mutant can be switched on
        at run time (see `Scripts/mutation/schemata.py`): ("statement",) for a statement that runs only while the
        mutant is off; ("region", low, high, alternative) for an expression whose text becomes `alternative`; None
        for the expression found around `start`."""
        if any(low <= start and end <= high for low, high in self.skip_ranges):
            return
        if self.source[start:end] == replacement:
            return
        self.sites.append((operator, token, start, end, replacement, schema))

    def token_at(self, offset):
        """The index of the token that starts at `offset`, or None."""
        low, high = 0, len(self.tokens)
        while low < high:
            middle = (low + high) // 2
            if self.tokens[middle].start < offset:
                low = middle + 1
            else:
                high = middle
        return low if low < len(self.tokens) and self.tokens[low].start == offset else None

    def region(self, index, start, end, replacement):
        """The schema of a change of source[start:end] inside the expression around token `index`: the expression
        and its text with the change, or None where it is not an expression the change stays inside."""
        low, high = self.expression_bounds(index)
        region_start, region_end = self.tokens[low].start, self.tokens[high - 1].end
        if not (region_start <= start and end <= region_end):
            return None
        if any(self.tokens[i].text in ("try", "await", "try?", "try!") for i in range(low, high)):
            return None
        alternative = self.source[region_start:start] + replacement + self.source[end:region_end]
        return ("region", region_start, region_end, alternative)

    def schema_for_change(self, start, end, replacement):
        """The schema of an arbitrary change (a hand mutant's), or None."""
        index = self.token_at(start)
        if index is None:
            following = [i for i, token in enumerate(self.tokens) if token.start >= start]
            if not following:
                return None
            index = following[0]
        return self.region(index, start, end, replacement)

    def is_binary(self, index):
        token = self.tokens[index]
        return token.kind == "op" and token.space_before and token.space_after

    def is_ternary_question(self, index):
        token = self.tokens[index]
        return token.kind == "op" and token.text == "?" and token.space_before and token.space_after

    def continues(self, index):
        """Whether the newline before token `index` continues the expression of the token before it."""
        token, previous = self.tokens[index], self.tokens[index - 1]
        if previous.kind == "op" or previous.text in (",", "(", "[", "{", ":"):
            return True
        if token.kind == "op" and token.text in BINARY_LIKE | {"?", ":"}:
            return True
        return token.text == "." or (token.kind == "op" and token.space_before and token.space_after)

    def expression_bounds(self, index, stop_at=()):
        """The tokens [start, end) of the expression around the binary operator at `index`, at its bracket depth."""
        tokens = self.tokens
        start = index
        i = index - 1
        while i >= 0:
            token = tokens[i]
            if token.kind == "punct" and token.text in CLOSE:
                i = self.partner[i]
                start = i
                if tokens[i].newline_before and not self.continues(i):
                    break
                i -= 1
                continue
            if token.kind == "punct" and (token.text in OPEN or token.text in (",", ";", ":")):
                break
            if token.kind == "op" and token.text in ("=", "+=", "-=", "*=", "/=", "->") or token.text in stop_at:
                break
            if self.is_ternary_question(i) or (token.kind == "ident" and token.text in KEYWORD_BOUNDARIES):
                break
            start = i
            if token.newline_before and not self.continues(i):
                break
            i -= 1
        end = index + 1
        i = index + 1
        while i < len(tokens):
            token = tokens[i]
            if i > index + 1 and token.newline_before and not self.continues(i):
                break
            if token.kind == "punct" and token.text in OPEN:
                if token.text == "{" and (tokens[i - 1].kind in ("ident", "punct") and tokens[i - 1].text not in
                                          ("(", "[", ",", ":") and token.space_before):
                    # A body's brace (if x && y {), not a closure argument.
                    if tokens[i - 1].text not in ("where",) and not self._is_trailing_closure(i):
                        break
                i = self.partner[i] + 1
                end = i
                continue
            if token.kind == "punct" and (token.text in CLOSE or token.text in (",", ";", ":")):
                break
            if token.kind == "op" and token.text in ("=", "+=", "-=", "*=", "/=") or token.text in stop_at:
                break
            if self.is_ternary_question(i) or (token.kind == "ident" and token.text in KEYWORD_BOUNDARIES):
                break
            i += 1
            end = i
        return start, end

    def _is_trailing_closure(self, index):
        previous = self.tokens[index - 1]
        # `map {`, `filter {`: an identifier right before the brace after a dot chain is a call with a closure.
        return previous.kind == "ident" and index >= 2 and self.tokens[index - 2].text == "." and \
            previous.text in {"map", "filter", "contains", "allSatisfy", "first", "last", "compactMap", "flatMap",
                              "min", "max", "sorted", "reduce", "lazy", "forEach", "firstIndex", "lastIndex"}

    def split(self, start, end, separators):
        """[start, end) split at the tokens of `separators` at depth 0: the parts as (start, end) pairs."""
        parts, part_start, i = [], start, start
        while i < end:
            token = self.tokens[i]
            if token.kind == "punct" and token.text in OPEN:
                i = self.partner[i] + 1
                continue
            if token.text in separators and token.kind in ("op", "punct"):
                parts.append((part_start, i))
                part_start = i + 1
            i += 1
        parts.append((part_start, end))
        return parts

    def text(self, start, end):
        """The source text of tokens [start, end)."""
        return self.source[self.tokens[start].start:self.tokens[end - 1].end]

    def has_string(self, start, end):
        return any(self.tokens[i].kind == "string" for i in range(start, end))

    def _message_ternaries(self):
        """The source ranges of ternaries whose branches are both messages: their slips change words, no decision."""
        ranges = []
        for index in range(len(self.tokens)):
            if not self.is_ternary_question(index):
                continue
            colon = self.ternary_colon(index)
            if colon is None:
                continue
            true_start, true_end = index + 1, colon
            false_end = self.ternary_end(colon)
            if self.has_string(true_start, true_end) and self.has_string(colon + 1, false_end):
                condition_start, _ = self.expression_bounds(index, stop_at=("?",))
                ranges.append((self.tokens[condition_start].start, self.tokens[false_end - 1].end))
        return ranges

    def ternary_colon(self, question):
        depth, i = 0, question + 1
        while i < len(self.tokens):
            token = self.tokens[i]
            if token.kind == "punct" and token.text in OPEN:
                i = self.partner[i] + 1
                continue
            if token.kind == "punct" and (token.text in CLOSE or token.text in (",", ";")):
                return None
            if self.is_ternary_question(i):
                depth += 1
            elif token.kind == "punct" and token.text == ":" and token.space_before:
                if depth == 0:
                    return i
                depth -= 1
            i += 1
        return None

    def ternary_end(self, colon):
        i, depth = colon + 1, 0
        while i < len(self.tokens):
            token = self.tokens[i]
            if token.newline_before and not self.continues(i):
                break
            if token.kind == "punct" and token.text in OPEN:
                if token.text == "{" and not self._is_trailing_closure(i) and token.space_before and \
                        self.tokens[i - 1].text not in ("(", "[", ","):
                    break
                i = self.partner[i] + 1
                continue
            if token.kind == "punct" and (token.text in CLOSE or token.text in (",", ";")):
                break
            if self.is_ternary_question(i):
                depth += 1
            elif token.kind == "punct" and token.text == ":":
                if depth == 0:
                    break
                depth -= 1
            elif token.kind == "op" and token.text in ("=", "+=", "-="):
                break
            elif token.kind == "ident" and token.text in ("else", "where", "in"):
                break
            i += 1
        return i

    def block_owner(self, brace):
        """What opens the block whose `{` is at `brace`: a control keyword, `guard`, `switch`, or None (a function,
        a closure, a declaration)."""
        i = brace - 1
        tokens = self.tokens
        if i >= 0 and (tokens[i].kind == "op" or tokens[i].text in ("(", "[", ",", ":", "return")):
            return None  # a closure
        while i >= 0:
            token = tokens[i]
            if token.kind == "punct" and token.text in CLOSE and token.text != "}":
                i = self.partner[i] - 1
                continue
            if token.kind == "punct" and token.text in ("{", "}", ";"):
                if token.text == "}" and i == brace - 2 and tokens[brace - 1].text == "else":
                    return "else"
                return None
            if token.kind == "ident":
                if token.text == "else":
                    if tokens[i - 1].text == "}":
                        return "else"
                    i -= 1
                    continue
                if token.text in CONTROL or token.text in ("guard", "switch"):
                    return token.text
                # `let` and `var` also bind in conditions, and `in` ends a for loop's header: neither ends the look.
                if token.text in DECLARATIONS and token.text not in ("let", "var"):
                    return None
            i -= 1
        return None

    def backwards(self, index):
        """(position, token) of the tokens before `index`, nearest first, stepping over each closed group whole: the
        tokens of the same nesting level as `index` and the groups that enclose it."""
        i = index - 1
        while i >= 0:
            token = self.tokens[i]
            if token.kind == "punct" and token.text in CLOSE:
                i = self.partner[i] - 1
                continue
            yield i, token
            i -= 1

    def enclosing_brace(self, index):
        """The position of the `{` that opens the block holding token `index`, or None at the top level."""
        for i, token in self.backwards(index):
            if token.kind == "punct" and token.text == "{":
                return i
        return None

    def in_case_pattern(self, index):
        """Whether token `index` lies in a switch case's pattern, between `case` and its `:`."""
        for _, token in self.backwards(index):
            if token.kind == "punct" and token.text in ("{", "}", ";", ":"):
                return False
            if token.kind == "ident" and token.text in ("case", "default"):
                return True
            if token.kind == "ident" and token.text in ("if", "guard", "while", "for", "let", "var", "return"):
                return False
        return False

    def statement_start(self, index):
        """The first token of the postfix chain ending at `index` (a receiver, `.member`, calls, subscripts)."""
        i = index
        while i > 0:
            previous = self.tokens[i - 1]
            token = self.tokens[i]
            if token.space_before and not (previous.text == "." or token.text == "."):
                break
            if previous.kind == "punct" and previous.text in (")", "]"):
                i = self.partner[i - 1]
                continue
            if previous.kind in ("ident", "postfix") or previous.text == ".":
                i -= 1
                continue
            break
        return i

    def ends_statement(self, index):
        """Whether the statement ends after token `index`."""
        if index + 1 >= len(self.tokens):
            return True
        following = self.tokens[index + 1]
        return following.text in ("}", ";") or (following.newline_before and not self.continues(index + 1))

    # ---- operators ----

    def generate(self):
        tokens = self.tokens
        for index, token in enumerate(tokens):
            # An operator's declaration (`static func == (lhs:rhs:)`) is not a comparison: no switch can hold it.
            declared = index > 0 and tokens[index - 1].text == "func"
            if token.kind == "op" and token.text in RELATIONAL and self.is_binary(index) and not declared:
                self.add("relational", f"{SLUGS[token.text]}-{SLUGS[RELATIONAL[token.text]]}", token.start,
                         token.end, RELATIONAL[token.text])
            if token.kind == "op" and token.text in ("&&", "||") and self.is_binary(index):
                other = "||" if token.text == "&&" else "&&"
                self.add("logical", f"{SLUGS[token.text]}-{SLUGS[other]}", token.start, token.end, other)
            if token.kind == "ident" and token.text in ("true", "false"):
                other = "false" if token.text == "true" else "true"
                operator = "nil-default" if index and tokens[index - 1].text == "??" else "bool-literal"
                self.add(operator, f"{token.text}-{other}", token.start, token.end, other)
            if token.kind == "ident" and token.text in ("min", "max") and index + 1 < len(tokens) and \
                    tokens[index + 1].text in ("(", "{") and (tokens[index - 1].text == "." or
                                                             not token.space_after):
                other = "max" if token.text == "min" else "min"
                self.add("min-max", f"{token.text}-{other}", token.start, token.end, other)
            if token.kind == "ident" and index and tokens[index - 1].text == "." and \
                    re.fullmatch(r"(first|last)(Index)?", token.text):
                other = token.text.replace("first", "LAST").replace("last", "first").replace("LAST", "last")
                self.add("first-last", f"{token.text}-{other}", token.start, token.end, other)
            if token.kind == "ident" and token.text in INSTANT_EDGES and index and tokens[index - 1].text == "." and \
                    index + 1 < len(tokens) and tokens[index + 1].text == "(":
                other = INSTANT_EDGES[token.text]
                self.add("instant-edge", f"{token.text}-{other}", token.start, token.end, other)
            if token.kind == "ident" and token.text in ("sorted", "sort") and index and tokens[index - 1].text == ".":
                self.sort_order(index)
            if self.is_ternary_question(index):
                self.ternary(index)
            if token.kind == "op" and token.text == "!" and (token.space_before or
                                                            tokens[index - 1].text in ("(", "[", ",")) \
                    and not token.space_after:
                self.add("negate", "not-removed", token.start, token.end, "")
            if token.kind == "ident" and token.text == "isEmpty" and tokens[index - 1].text == ".":
                start = self.statement_start(index)
                if start and tokens[start - 1].kind == "op" and tokens[start - 1].text == "!":
                    continue
                self.add("negate", "isEmpty", tokens[start].start, tokens[index].end,
                         "!" + self.source[tokens[start].start:tokens[index].end])
            if token.kind == "ident" and token.text in ("if", "guard", "while", "where"):
                self.condition_list(index)
            if token.kind == "ident" and token.text in STATEMENT_VERBS and index + 1 < len(tokens) and \
                    tokens[index + 1].text == "(" and not tokens[index + 1].space_before:
                self.delete_statement(index)
            if token.kind == "ident" and token.text in ("continue", "break", "return"):
                self.remove_jump(index)
        for index, token in enumerate(tokens):
            if token.kind == "op" and token.text in ("&&", "||") and self.is_binary(index):
                self.drop_operands(index)
        return self.sites

    def sort_order(self, index):
        tokens = self.tokens
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if following is None:
            return
        if following.text == "(" and tokens[index + 2].text == ")":
            self.add("sort-order", f"{tokens[index].text}-descending", following.start, tokens[index + 2].end,
                     "(by: >)", self.region(index, following.start, tokens[index + 2].end, "(by: >)"))
            return
        closure = None
        if following.text == "(" and tokens[index + 2].text == "by" and tokens[index + 3].text == ":":
            argument = index + 4
            close = self.partner[index + 1]
            if argument + 1 == close and tokens[argument].text in ("<", ">"):
                other = ">" if tokens[argument].text == "<" else "<"
                self.add("sort-order", f"{tokens[index].text}-reversed", tokens[argument].start, tokens[argument].end,
                         other, self.region(index, tokens[argument].start, tokens[argument].end, other))
                return
            if argument + 1 == close and tokens[argument].kind == "ident":
                name = tokens[argument].text
                swapped = f"{{ {name}($1, $0) }}"
                self.add("sort-order", f"{tokens[index].text}-reversed", tokens[argument].start,
                         tokens[argument].end, swapped,
                         self.region(index, tokens[argument].start, tokens[argument].end, swapped))
                return
            if tokens[argument].text == "{":
                closure = argument
        elif following.text == "{":
            closure = index + 1
        if closure is None:
            return
        self.reverse_closure(closure, f"{tokens[index].text}-reversed", index)

    def reverse_closure(self, brace, token_name, call):
        tokens = self.tokens
        close = self.partner[brace]
        body = self.source[tokens[brace].start:tokens[close].end]
        if "$0" in body and "$1" in body:
            swapped = _swap_arguments(body)
            self.add("sort-order", token_name, tokens[brace].start, tokens[close].end, swapped,
                     self.region(call, tokens[brace].start, tokens[close].end, swapped)
                     or self.closure_body_region(brace, close))
            return
        if brace + 4 < close and tokens[brace + 1].kind == "ident" and tokens[brace + 2].text == "," and \
                tokens[brace + 3].kind == "ident" and tokens[brace + 4].text == "in":
            first, second = tokens[brace + 1], tokens[brace + 3]
            swapped = f"{second.text}, {first.text}"
            self.add("sort-order", token_name, first.start, second.end, swapped,
                     self.region(call, first.start, second.end, swapped))

    def closure_body_region(self, brace, close):
        """The schema of a one-line closure whose body is a single expression, with $0 and $1 swapped: the body
        switched inside the braces, where the call around the closure is a statement (a trailing `sort { ... }`) that
        no expression holds. None for any other body."""
        tokens = self.tokens
        if close <= brace + 1 or tokens[close].line != tokens[brace].line:
            return None
        inside = range(brace + 1, close)
        if tokens[brace + 1].text in KEYWORD_BOUNDARIES or any(
                tokens[i].text in (";", "in", "try", "await", "try?", "try!") for i in inside):
            return None
        low, high = tokens[brace + 1].start, tokens[close - 1].end
        return ("region", low, high, _swap_arguments(self.source[low:high]))

    def ternary(self, question):
        colon = self.ternary_colon(question)
        if colon is None:
            return
        tokens = self.tokens
        end = self.ternary_end(colon)
        if end <= colon + 1:
            return
        true_text, false_text = self.text(question + 1, colon), self.text(colon + 1, end)
        if tokens[question].line != tokens[end - 1].line:
            return
        swapped = f"{false_text} : {true_text}"
        condition_start, _ = self.expression_bounds(question, stop_at=("?",))
        schema = None
        if not any(tokens[i].text in ("try", "await") for i in range(condition_start, end)):
            low, high = tokens[condition_start].start, tokens[end - 1].end
            schema = ("region", low, high, self.source[low:tokens[question + 1].start] + swapped)
        self.add("ternary", "swap", tokens[question + 1].start, tokens[end - 1].end, swapped, schema)
        for branch_start, branch_end in ((question + 1, colon), (colon + 1, end)):
            if branch_end == branch_start + 1 and tokens[branch_start].text in ("0", "1"):
                other = "1" if tokens[branch_start].text == "0" else "0"
                self.add("zero-one", f"{tokens[branch_start].text}-{other}", tokens[branch_start].start,
                         tokens[branch_start].end, other)

    def condition_list(self, keyword):
        tokens = self.tokens
        word = tokens[keyword].text
        if word == "while" and keyword and tokens[keyword - 1].text == "}":
            return
        if word == "where":
            i = keyword - 1
            while i >= 0:
                if tokens[i].kind == "punct" and tokens[i].text in (")", "]"):
                    i = self.partner[i] - 1
                    continue
                if tokens[i].text in ("{", "}", ";") or tokens[i].text in DECLARATIONS:
                    return
                if tokens[i].text in ("for", "case", "catch"):
                    break
                i -= 1
            if i < 0:
                return
        i = keyword + 1
        end = None
        while i < len(tokens):
            token = tokens[i]
            if token.kind == "punct" and token.text in ("(", "["):
                i = self.partner[i] + 1
                continue
            if token.kind == "punct" and token.text == "{":
                if word == "guard" or self._is_trailing_closure(i) or tokens[i - 1].text in ("(", "[", ","):
                    i = self.partner[i] + 1
                    continue
                end = i
                break
            if word == "guard" and token.text == "else":
                end = i
                break
            if word == "where" and token.text == ":" and token.kind == "punct":
                end = i
                break
            if token.kind == "punct" and token.text in (")", "]", "}", ";"):
                return
            i += 1
        if end is None or end == keyword + 1:
            return
        parts = self.split(keyword + 1, end, {","}) if word != "where" else [(keyword + 1, end)]
        for number, (start, stop) in enumerate(parts):
            if start >= stop:
                continue
            first = tokens[start].text
            if first in ("let", "var", "case", "try", "try?", "await") or \
                    any(tokens[j].text == "=" and tokens[j].kind == "op" for j in range(start, stop)):
                continue
            text = self.text(start, stop)
            name = f"{word}-{number + 1}of{len(parts)}"
            low, high = tokens[start].start, tokens[stop - 1].end
            if not self.negation_is_another_operator(start, stop):
                self.add("negate", name, low, high, f"!({text})", ("region", low, high, f"!({text})"))
            # Without the condition, the list holds as if it were true.
            dropped = ("region", low, high, "true")
            if word == "where":
                self.add("drop-condition", name, tokens[keyword].start, high, "", dropped)
            elif len(parts) == 1:
                self.add("drop-condition", name, low, high, "true", dropped)
            elif number + 1 < len(parts):
                self.add("drop-condition", name, low, tokens[parts[number + 1][0]].start, "", dropped)
            else:
                self.add("drop-condition", name, tokens[parts[number - 1][1]].start, high, "", dropped)

    def negation_is_another_operator(self, start, stop):
        """Whether negating the condition [start, stop) is a slip another operator already makes: a single `==` or
        `!=` (the relational operator flips it) or a single term behind a prefix `!` (negate removes the `!`)."""
        tokens = self.tokens
        top = []
        i = start
        while i < stop:
            if tokens[i].kind == "punct" and tokens[i].text in OPEN:
                i = self.partner[i] + 1
                continue
            if tokens[i].kind == "op" and self.is_binary(i):
                top.append(tokens[i].text)
            i += 1
        if top in (["=="], ["!="]):
            return True
        return not top and tokens[start].kind == "op" and tokens[start].text == "!"

    def drop_operands(self, index):
        start, end = self.expression_bounds(index)
        seen = getattr(self, "_regions", set())
        self._regions = seen
        if (start, end) in seen:
            return
        seen.add((start, end))
        tokens = self.tokens

        def chains(region_start, region_end):
            for separator in ("||", "&&"):
                parts = self.split(region_start, region_end, {separator})
                if len(parts) > 1:
                    yield separator, parts
                    for part in parts:
                        yield from chains(*part)
                    return

        for separator, parts in chains(start, end):
            for number, (part_start, part_end) in enumerate(parts):
                if part_start >= part_end:
                    continue
                name = f"{SLUGS[separator]}-{number + 1}of{len(parts)}"
                if number + 1 < len(parts):
                    low, high = tokens[part_start].start, tokens[parts[number + 1][0]].start
                else:
                    low, high = tokens[parts[number - 1][1]].start, tokens[part_end - 1].end
                self.add("drop-operand", name, low, high, "")

    def delete_statement(self, verb):
        tokens = self.tokens
        start = self.statement_start(verb)
        first = tokens[start]
        if start and not (first.newline_before or tokens[start - 1].text in ("{", ";", "else", "in")):
            return
        if start and tokens[start - 1].text == ":":
            return
        close = self.partner[verb + 1]
        end = close
        if end + 1 < len(tokens) and tokens[end + 1].text == "{" and not tokens[end + 1].newline_before:
            end = self.partner[end + 1]
        if not self.ends_statement(end):
            return
        brace = self.enclosing_brace(start)
        if brace is not None and self.block_owner(brace) == "guard":
            return
        # The only expression of a function's or closure's body is what it returns: deleting it is no slip of this
        # kind (and no Swift that compiles).
        if brace is not None and self.block_owner(brace) is None and brace == start - 1 and \
                end + 1 < len(tokens) and tokens[end + 1].text == "}":
            return
        self.add("delete-statement", tokens[verb].text, first.start, tokens[end].end, "", ("statement",))

    def remove_jump(self, index):
        tokens = self.tokens
        word = tokens[index].text
        if index and tokens[index - 1].text not in ("{", ";", "else") and not tokens[index].newline_before:
            return
        brace = self.enclosing_brace(index)
        if brace is None:
            return
        owner = self.block_owner(brace)
        if owner == "guard" or (word == "return" and owner not in CONTROL):
            return
        end = index
        if word == "return":
            i = index + 1
            while i < len(tokens) and not (tokens[i].text in ("}", ";") or (tokens[i].newline_before and
                                                                          not self.continues(i))):
                if tokens[i].kind == "punct" and tokens[i].text in OPEN:
                    i = self.partner[i]
                end = i
                i += 1
        elif index + 1 < len(tokens) and tokens[index + 1].kind == "ident" and not tokens[index + 1].newline_before:
            end = index + 1  # a labelled break or continue
        if not self.ends_statement(end):
            return
        self.add("remove-jump", word, tokens[index].start, tokens[end].end, "", ("statement",))

    # ---- ids ----

    def normalised(self, line_number):
        """The line's code, comments dropped and whitespace collapsed."""
        indices = self.line_tokens.get(line_number, [])
        return " ".join(self.tokens[i].text for i in indices)

    def mutants(self, area, stem):
        sites = self.generate()
        result, keys = [], {}
        for operator, token_name, start, end, replacement, schema in sites:
            line = self.source.count("\n", 0, start) + 1
            line_start = self.source.rfind("\n", 0, start) + 1
            line_end = self.source.find("\n", end)
            line_end = len(self.source) if line_end < 0 else line_end
            before = _collapse(_strip_comment(self.source[line_start:start]))
            inside = _collapse(_strip_comments(self.source[start:end]))
            after = _collapse(_strip_comment(self.source[end:line_end]))
            key = f"{operator}|{before}⟦{inside}→{_collapse(replacement)}⟧{after}"
            mutant = Mutant()
            mutant.file, mutant.operator, mutant.token = self.path, operator, token_name
            mutant.start, mutant.end, mutant.replacement, mutant.line = start, end, replacement, line
            mutant.original, mutant.mutated = self.source[start:end], replacement
            if schema is None:
                index = self.token_at(start)
                schema = self.region(index, start, end, replacement) if index is not None else None
                if schema and self.in_case_pattern(index):
                    # A switch's patterns decide its exhaustiveness at compile time: no run-time switch there.
                    schema = None
            elif schema == ("statement",):
                schema = ("statement", start, end)
            mutant.schema = schema
            keys.setdefault(key, []).append(mutant)
            result.append((key, mutant))
        for key, group in keys.items():
            for mutant in group:
                material = key
                if len(group) > 1:
                    # The same line twice in one file: its neighbours tell the copies apart.
                    material += "|" + self.context(mutant.line)
                digest = hashlib.sha1(material.encode("utf-8")).hexdigest()[:8]
                mutant.id = f"g.{area}.{stem}.{mutant.operator}.{mutant.token}.{digest}"
        ids = {}
        for _, mutant in result:
            ids.setdefault(mutant.id, []).append(mutant)
        # Copies that their neighbours cannot tell apart either are the same slip twice: keep the first, whose result
        # stands for both.
        return [group[0] for group in ids.values()]

    def context(self, line):
        above = next((self.normalised(n) for n in range(line - 1, 0, -1) if self.normalised(n)), "")
        below = next((self.normalised(n) for n in range(line + 1, len(self.lines) + 1) if self.normalised(n)), "")
        return above + "\n" + below


def _strip_comment(text):
    index = text.find("//")
    return text if index < 0 or text.count('"', 0, index) % 2 else text[:index]


def _strip_comments(text):
    return "\n".join(_strip_comment(line) for line in text.split("\n"))


def _swap_arguments(text):
    """A closure's text with its first two anonymous arguments, $0 and $1, swapped."""
    return text.replace("$0", "\0").replace("$1", "$0").replace("\0", "$1")


def _collapse(text):
    return " ".join(text.split())


def scope_files(root=ROOT):
    """The Swift files in scope, relative to the package root, sorted."""
    files = []
    for folder in SCOPE:
        directory = os.path.join(root, SOURCES, folder)
        for name in sorted(os.listdir(directory)):
            if name.endswith(".swift"):
                files.append(f"{SOURCES}/{folder}/{name}")
    return files


def area_of(path):
    return path.split("/")[2].lower()


def mutants_of(path, source):
    stem = os.path.basename(path)[:-len(".swift")].replace("+", "-")
    return FileMutator(path, source).mutants(area_of(path), stem)


def generate(root=ROOT, files=None):
    """Every generated mutant in scope, by file order and position."""
    result = []
    for path in files or scope_files(root):
        with open(os.path.join(root, path), encoding="utf-8") as handle:
            source = handle.read()
        result.extend(sorted(mutants_of(path, source), key=lambda m: (m.start, m.end, m.id)))
    return result


def apply(mutant, source):
    return source[:mutant.start] + mutant.replacement + source[mutant.end:]


def main():
    parser = argparse.ArgumentParser(description="Lists the mutants generated from the decision code.")
    parser.add_argument("--count", action="store_true", help="the number of mutants by area and operator")
    parser.add_argument("--list", action="store_true", help="every mutant, one line each")
    parser.add_argument("prefixes", nargs="*", help="only ids starting with one of these")
    options = parser.parse_args()
    mutants = [m for m in generate() if not options.prefixes or any(m.id.startswith(p) for p in options.prefixes)]
    if options.count:
        by_area, by_operator = {}, {}
        for mutant in mutants:
            by_area[area_of(mutant.file)] = by_area.get(area_of(mutant.file), 0) + 1
            by_operator[mutant.operator] = by_operator.get(mutant.operator, 0) + 1
        for name, count in sorted(by_area.items()):
            print(f"{name:16} {count}")
        print()
        for name, count in sorted(by_operator.items()):
            print(f"{name:18} {count}")
        print(f"\n{len(mutants)} mutants")
        return 0
    for mutant in mutants:
        print(f"{mutant.id}  {mutant.file}:{mutant.line}  {mutant.original!r} -> {mutant.mutated!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
