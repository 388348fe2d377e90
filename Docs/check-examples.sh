#!/usr/bin/env bash
# Compiles every ```swift example in README.md and the documentation catalogs, as a user would
# paste it: into a client package that depends on this repository by path, in Swift 6 mode,
# with warnings as errors.
#
#   bash Docs/check-examples.sh              # every document
#   bash Docs/check-examples.sh FILE.md ...  # these only (the fragment count is not checked)
#
# Each example becomes a target of its own in .build/examples (so examples may reuse type
# names). Its declarations stay at file scope and its other statements go into a function, as in
# real code, where an unused token is a warning (and the fix-it, `_ =`, cancels it at once). An
# example with no `import` line gets `import Events` and `import Foundation`, the imports an
# article's context implies. Failures are reported at the example's own file:line.
#
# Markers, in HTML comments on the lines before an example's fence (DocC does not render HTML
# comments, so readers never see them; blank lines may separate them from the fence):
#
#   <!-- fragment: manifest -->   a Package.swift excerpt: skipped
#   <!-- fragment: before -->     another library's code, the "before" of a migration: skipped
#
# At most MAX_FRAGMENTS fragments in all; any other example compiles. A bare `<!-- fragment -->`
# or another reason is an error.
#
#   <!-- context:
#   final class ProfileScreen {
#     func viewDidLoad() {
#       <example>
#     }
#   }
#   -->
#
# Hidden lines, as rustdoc's `# ` lines: the comment's Swift lines are compiled with the
# example and not shown. Without an `<example>` line they come before the example (a preamble:
# the types it uses); with one, the example's lines take its place, indented as it is (a piece
# of a class, compiled inside it).
# DocC reads a line that starts with `@` as a directive even inside a comment, so such a line
# is written with a backslash, `\@MainActor`, which the check drops.
#
#   <!-- compile-error -->
#
# An example of what Swift rejects: it must fail to compile with exactly the errors that its
# `// error: ...` comments quote (a quote may go on over `//` lines indented past `error:`),
# no other error, and no quote left unmatched.
#
#   <!-- settings: default-isolation-main-actor -->
#
# Compiles the example as an app target that Xcode creates (SE-0466,
# `.defaultIsolation(MainActor.self)`).
#
# An example that imports UIKit, SwiftUI or Combine, which Linux lacks, compiles against stand-in
# modules: .ci/apple-standins/modules/<Module>.swift (which .ci/apple-standins.sh also uses) plus
# Docs/standins/<Module>.swift, the SDK declarations the articles use, with the SDK's signatures.
# They prove that the Events side of the example is right, not that the SDK is used well.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
client="$root/.build/examples"

python3 - "$root" "$client" "$@" <<'PY'
import glob, json, os, re, shutil, subprocess, sys

root, client, chosen = sys.argv[1], sys.argv[2], sys.argv[3:]
MAX_FRAGMENTS = 12
FRAGMENT_REASONS = ("manifest", "before")
SETTINGS = {"default-isolation-main-actor": ".defaultIsolation(MainActor.self)"}
STANDINS = ("Combine", "UIKit", "SwiftUI")  # each after the stand-ins it imports
# A line at column 0 that opens a declaration, after any attributes and modifiers.
DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|fileprivate|private|final|nonisolated)\s+)*"
    r"(?:import|class|struct|enum|protocol|extension|func|actor|typealias)\b")

# An attribute alone on its line, such as `@available(macOS 26, *)` above a declaration.
ATTRIBUTE_LINE = re.compile(r"^@\w+(?:\([^)]*\))?\s*$")

class Example:
    def __init__(self, document, first_line, code):
        self.document, self.first_line, self.code = document, first_line, code
        self.context = None      # (first line number, lines) of a <!-- context: --> comment
        self.settings = []
        self.fragment = None     # its reason
        self.compile_error = False

    def covers(self, line):
        """Whether a line of the Markdown file is one of the example's, hidden ones included."""
        last = self.first_line + len(self.code) - 1
        context_line, context = self.context or (0, [])
        return (self.first_line <= line <= last
                or context_line <= line < context_line + len(context))

errors = []

def markers(lines, fence):
    """The HTML comments right above the fence at index `fence` (blank lines between them
    allowed), nearest last, each as (first line index, its lines)."""
    found, index = [], fence - 1
    while index >= 0:
        if not lines[index].strip():
            index -= 1
            continue
        if not lines[index].rstrip().endswith("-->"):
            break
        end = index
        while index >= 0 and "<!--" not in lines[index]:
            index -= 1
        if index < 0:
            break
        found.insert(0, (index, lines[index:end + 1]))
        index -= 1
    return found

def examples(path):
    """Yields an Example for each ```swift fence."""
    lines = open(path, encoding="utf-8").read().split("\n")
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```swift":
            end = index + 1
            while not lines[end].strip().startswith("```"):
                end += 1
            example = Example(path, index + 2, lines[index + 1:end])
            for start, comment in markers(lines, index):
                head = comment[0].strip()
                where = f"{path}:{start + 1}"
                if head.startswith("<!-- fragment"):
                    match = re.fullmatch(r"<!-- fragment: (\w+) -->", head)
                    if not match or match.group(1) not in FRAGMENT_REASONS:
                        errors.append(f"{where}: error: a fragment says why it cannot compile: "
                                      "<!-- fragment: manifest --> or <!-- fragment: before -->"
                                      "; any other example compiles (hidden lines: "
                                      "<!-- context: ... -->)")
                    example.fragment = match.group(1) if match else "?"
                elif head == "<!-- compile-error -->":
                    example.compile_error = True
                elif head.startswith("<!-- settings:"):
                    for setting in head[len("<!-- settings:"):-len("-->")].split():
                        if setting not in SETTINGS:
                            errors.append(f"{where}: error: unknown setting '{setting}' (known: "
                                          f"{', '.join(SETTINGS)})")
                        else:
                            example.settings.append(SETTINGS[setting])
                elif head == "<!-- context:":
                    if comment[-1].strip() != "-->":
                        errors.append(f"{where}: error: a context comment ends with `-->` "
                                      "alone on its line")
                    example.context = (start + 2, [re.sub(r"^(\s*)\\@", r"\1@", l)
                                                   for l in comment[1:-1]])
            yield example
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

def located(relative, start, block):
    """The block, preceded by its place in the Markdown file so that diagnostics name it, and
    followed by a reset, so that the generated lines after it get their own location back."""
    return [f'#sourceLocation(file: "{relative}", line: {start})'] + block + ["#sourceLocation()"]

def generate(example):
    relative, first_line, code = example.document, example.first_line, example.code
    context_line, context = example.context or (None, [])
    placeholder = next((i for i, l in enumerate(context) if l.strip() == "<example>"), None)
    if placeholder is not None:
        # The example goes inside the context's declarations, verbatim: only the context's
        # imports move to the top.
        indent = context[placeholder][:len(context[placeholder]) - len(context[placeholder].lstrip())]
        imports = [l for l in context if l.startswith("import ")]
        before = [l for l in context[:placeholder] if not l.startswith("import ")]
        out = imports or ["import Events", "import Foundation"]
        out += located(relative, context_line, before)
        out += located(relative, first_line, [indent + l if l.strip() else l for l in code])
        out += located(relative, context_line + placeholder + 1, context[placeholder + 1:])
        return "\n".join(out + [""])
    imports, declarations, statements = [], [], []
    for start, block in (list(blocks(context, context_line)) if context else []) + list(
            blocks(code, first_line)):
        head = next(l for l in block
                    if l.strip() and not l.startswith("//") and not ATTRIBUTE_LINE.match(l))
        if head.startswith("import "):
            imports.append((start, block))
        elif DECLARATION.match(head):
            declarations.append((start, block))
        else:
            statements.append((start, block))
    out = [] if imports else ["import Events", "import Foundation"]
    for start, block in imports + declarations:
        out += located(relative, start, block)
    if statements:
        out.append("@MainActor func example() async throws {")
        for start, block in statements:
            out += located(relative, start, block)
        out.append("}")
    return "\n".join(out + [""])

os.chdir(root)
documents = chosen or (["README.md"] + sorted(glob.glob("Docs/*.docc/*.md"))
                       + sorted(glob.glob("Sources/*/*.docc/*.md")))
shutil.rmtree(os.path.join(client, "Sources"), ignore_errors=True)
targets, fragments, rejected = {}, [], {}
for document in documents:
    for example in examples(document):
        if example.fragment:
            fragments.append(f"{document}:{example.first_line - 1} ({example.fragment})")
            continue
        name = "Example_" + re.sub(r"\W", "_", document[:-3]) + f"_{example.first_line - 1}"
        if example.compile_error:
            rejected[name] = example
            continue
        folder = os.path.join(client, "Sources", name)
        os.makedirs(folder)
        with open(os.path.join(folder, "Example.swift"), "w") as file:
            file.write(generate(example))
        source = "\n".join(example.code + (example.context or (0, []))[1])
        example.standins = [m for m in STANDINS if re.search(rf"^import {m}$", source, re.M)]
        targets[name] = example
if len(fragments) > MAX_FRAGMENTS and not chosen:
    errors.append(f"error: {len(fragments)} fragments, at most {MAX_FRAGMENTS}: " + ", ".join(fragments))
if errors:
    sys.exit("\n".join(errors))

# The stand-in modules, as targets of the client package.
for module in STANDINS:
    folder = os.path.join(client, "Sources", module)
    os.makedirs(folder)
    for part in (f".ci/apple-standins/modules/{module}.swift", f"Docs/standins/{module}.swift"):
        if os.path.exists(part):
            shutil.copy(part, os.path.join(folder, part.lstrip(".").replace("/", "_")))

def write_manifest(names):
    # A path dependency's identity is the last component of its path.
    identity = os.path.basename(root)
    products = [f'.product(name: "{p}", package: "{identity}")' for p in ("Events", "EventTesting")]
    lines = [f'    .target(name: "SwiftUI", dependencies: ["Combine"])',
             f'    .target(name: "UIKit")', f'    .target(name: "Combine")']
    for n in names:
        example = targets[n]
        settings = ", ".join(example.settings)
        lines.append(f'    .target(name: "{n}", dependencies: [{", ".join(products + [json.dumps(m) for m in example.standins])}]'
                     + (f", swiftSettings: [{settings}])" if settings else ")"))
    lines = ",\n".join(lines)
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
    failed = {n for n, example in remaining.items()
              for file, line in diagnostics if file == example.document and example.covers(int(line))}
    # A diagnostic outside the example's own lines names the generated file.
    failed |= set(re.findall(r"/Sources/(Example_\w+)/Example\.swift:\d+:\d+: error:",
                             build.stdout)) & set(remaining)
    if not failed:
        sys.exit(f"{build.stdout}\nerror: the examples' client package did not build; see above")
    failures += re.findall(r"^[^ ]+\.(?:md|swift):\d+:\d+: (?:error|warning): .*$",
                           build.stdout, re.M)
    for name in failed:
        del remaining[name]

def quoted_errors(example):
    """(line, text) of each `// error:` quote in the example; a quote goes on over the `//`
    lines right after it whose text is indented past `//`'s usual one space."""
    quotes, previous = [], None
    for number, line in enumerate(example.code, example.first_line):
        text = line.strip()
        if text.startswith("// error:"):
            quotes.append((number, text[len("// error:"):].strip()))
            previous = number
        elif previous == number - 1 and text.startswith("//  "):
            quotes[-1] = (quotes[-1][0], quotes[-1][1] + " " + text[2:].strip())
            previous = number
    return quotes

# The rejected examples are type-checked against the modules that build made.
modules = os.path.join(client, ".build", "debug", "Modules")
for name, example in sorted(rejected.items()):
    path = os.path.join(client, f"{name}.swift")
    open(path, "w").write(generate(example))
    # EventCore imports its C target; SwiftPM's build made the module map for it.
    cmap = os.path.join(client, ".build", "debug", "CEventCore.build", "module.modulemap")
    flags = ["-swift-version", "6", "-I", modules, "-parse-as-library",
             "-Xcc", f"-fmodule-map-file={cmap}"]
    if ".defaultIsolation(MainActor.self)" in example.settings:
        flags += ["-default-isolation", "MainActor"]
    check = subprocess.run(["swiftc", "-typecheck", *flags, path],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    errors_seen = re.findall(rf"^{re.escape(example.document)}:(\d+):\d+: error: (.*)$",
                             check.stdout, re.M)
    expected = quoted_errors(example)
    where = f"{example.document}:{example.first_line - 1}"
    if check.returncode == 0:
        failures.append(f"{where}: error: the example compiles, but its comments quote errors")
        continue
    normal = lambda text: " ".join(text.split())
    for line, text in expected:
        if not any(int(l) < line and normal(text) in normal(m) for l, m in errors_seen):
            failures.append(f"{example.document}:{line}: error: no error above says: {text}"
                            + "".join(f"\n  {example.document}:{l}: {m}" for l, m in errors_seen))
    for l, m in errors_seen:
        if not any(normal(text) in normal(m) for _, text in expected):
            failures.append(f"{example.document}:{l}: error: an error no comment quotes: {m}")
    if not errors_seen:
        failures.append(f"{where}: error: the example fails outside its own lines:\n{check.stdout}")

if failures:
    print("\n".join(sorted(set(failures))), file=sys.stderr)
    sys.exit(f"error: {len(targets) - len(remaining)} of {len(targets)} examples do not compile; "
             "fix them (hidden lines: <!-- context: ... --> before the fence)")
print(f"All {len(targets)} examples compile (Swift 6 mode, warnings as errors), "
      f"{len(rejected)} fail with the errors they quote; "
      f"{len(fragments)} fragments (at most {MAX_FRAGMENTS}) are not compiled: "
      + ", ".join(fragments))
PY
