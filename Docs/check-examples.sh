#!/usr/bin/env bash
# Compiles every ```swift example in README.md and the documentation catalogs, as a user would
# paste it: into a client package that depends on this repository by path, in Swift 6 mode,
# with warnings as errors.
#
#   bash Docs/check-examples.sh
#
# Each example becomes a target of its own in .build/examples (so examples may reuse type
# names). Its declarations stay at file scope and its other statements go into a function, as in
# real code, where an unused token is a warning (and the fix-it, `_ =`, cancels it at once). An
# example with no `import` line gets `import Events` and `import Foundation`, the imports an
# article's context implies. Failures are reported at the example's own file:line.
#
# An example that cannot compile on its own (a manifest, an Objective-C-era "before", a piece
# of a class) is marked on the line before its fence, and skipped:
#
#   <!-- fragment -->
#   ```swift
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
client="$root/.build/examples"

python3 - "$root" "$client" <<'PY'
import glob, json, os, re, shutil, subprocess, sys

root, client = sys.argv[1], sys.argv[2]
FRAGMENT = "<!-- fragment -->"
# A line at column 0 that opens a declaration, after any attributes and modifiers.
DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|fileprivate|private|final|nonisolated)\s+)*"
    r"(?:import|class|struct|enum|protocol|extension|func|actor|typealias)\b")

# An attribute alone on its line, such as `@available(macOS 26, *)` above a declaration.
ATTRIBUTE_LINE = re.compile(r"^@\w+(?:\([^)]*\))?\s*$")

def examples(path):
    """Yields (first line number of the code, code lines) of each compiled ```swift fence."""
    lines = open(path, encoding="utf-8").read().split("\n")
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```swift":
            end = index + 1
            while not lines[end].strip().startswith("```"):
                end += 1
            previous = next((l.strip() for l in reversed(lines[:index]) if l.strip()), "")
            if previous != FRAGMENT:
                yield index + 2, lines[index + 1:end]
            index = end
        index += 1

def blocks(code, first_line):
    """Splits code into top-level blocks: a column-0 line, its indented lines and closing
    brackets; comments, blank lines and attribute lines (`@available(...)` alone on its line)
    join the block that follows them."""
    current, start, pending = [], None, []
    for number, line in enumerate(code, first_line):
        opens = line and not line[0].isspace() and line[0] not in "}])" and not line.startswith("//")
        if opens and current:
            yield start, current
            current, start = [], None
        if not line.strip() or line.startswith("//") or ATTRIBUTE_LINE.match(line):
            pending.append((number, line))
            continue
        if start is None:
            start = pending[0][0] if pending else number
        current += [l for _, l in pending] + [line]
        pending = []
    if current:
        yield start, current

def generate(relative, first_line, code):
    imports, declarations, statements = [], [], []
    for start, block in blocks(code, first_line):
        head = next(l for l in block
                    if l.strip() and not l.startswith("//") and not ATTRIBUTE_LINE.match(l))
        if head.startswith("import "):
            imports.append((start, block))
        elif DECLARATION.match(head):
            declarations.append((start, block))
        else:
            statements.append((start, block))
    # Each block is preceded by its place in the Markdown file, so that diagnostics name it;
    # the generated lines between blocks get their own location back.
    location = lambda start: f'#sourceLocation(file: "{relative}", line: {start})'
    out = [] if imports else ["import Events", "import Foundation"]
    for start, block in imports + declarations:
        out += [location(start)] + block + ["#sourceLocation()"]
    if statements:
        out.append("@MainActor func example() async throws {")
        for start, block in statements:
            out += [location(start)] + block + ["#sourceLocation()"]
        out.append("}")
    return "\n".join(out + [""])

os.chdir(root)
documents = (["README.md"] + sorted(glob.glob("Docs/*.docc/*.md"))
             + sorted(glob.glob("Sources/*/*.docc/*.md")))
shutil.rmtree(os.path.join(client, "Sources"), ignore_errors=True)
targets = {}
for document in documents:
    for first_line, code in examples(document):
        name = "Example_" + re.sub(r"\W", "_", document[:-3]) + f"_{first_line - 1}"
        folder = os.path.join(client, "Sources", name)
        os.makedirs(folder)
        with open(os.path.join(folder, "Example.swift"), "w") as file:
            file.write(generate(document, first_line, code))
        targets[name] = (document, first_line, first_line + len(code) - 1)

def write_manifest(names):
    # A path dependency's identity is the last component of its path.
    identity = os.path.basename(root)
    lines = ",\n".join(
        f'    .target(name: "{n}", dependencies: [.product(name: "Events", package: "{identity}"), '
        f'.product(name: "EventTesting", package: "{identity}")])'
        for n in names)
    with open(os.path.join(client, "Package.swift"), "w") as manifest:
        manifest.write(f"""// swift-tools-version: 6.2
// Generated by Docs/check-examples.sh: one target per documentation example.
import PackageDescription

let package = Package(
  name: "EventsExamples",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [.package(path: {json.dumps(root)})],
  targets: [
{lines}
  ]
)
""")

print(f"Compiling {len(targets)} examples from {len(documents)} documents", file=sys.stderr)
# SwiftPM stops at the first target that fails, so build, set aside the examples that failed,
# and build the rest again, until what is left builds: every failure gets reported.
log = os.path.join(client, "build.log")
remaining, failures = dict(targets), []
while remaining:
    write_manifest(remaining)
    build = subprocess.run(
        ["swift", "build", "--package-path", client, "-Xswiftc", "-warnings-as-errors"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    open(log, "w").write(build.stdout)
    if build.returncode == 0:
        break
    # The diagnostics carry the example's Markdown file and line (#sourceLocation).
    diagnostics = sorted(set(re.findall(
        r"^([^ :]+\.md):(\d+):\d+: (?:error|warning): .*$", build.stdout, re.M)))
    failed = {n for n, (document, first, last) in remaining.items()
              for file, line in diagnostics if file == document and first <= int(line) <= last}
    # A diagnostic outside the example's own lines names the generated file.
    failed |= set(re.findall(r"/Sources/(Example_\w+)/Example\.swift:\d+:\d+: error:",
                             build.stdout)) & set(remaining)
    if not failed:
        sys.exit(f"{build.stdout}\nerror: the examples' client package did not build; see above")
    failures += re.findall(r"^[^ ]+\.(?:md|swift):\d+:\d+: (?:error|warning): .*$",
                           build.stdout, re.M)
    for name in failed:
        del remaining[name]

if failures:
    print("\n".join(sorted(set(failures))), file=sys.stderr)
    sys.exit(f"error: {len(targets) - len(remaining)} of {len(targets)} examples do not compile; "
             "fix them, or mark an example that is not meant to compile with <!-- fragment --> "
             "on the line before its fence")
print(f"All {len(targets)} examples compile (Swift 6 mode, warnings as errors).")
PY
