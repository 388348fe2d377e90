#!/usr/bin/env bash
# Type-checks the Apple-only code on Linux, where no Apple SDK exists, against stand-in modules
# (.ci/apple-standins/modules) that declare what the code uses with the SDKs' signatures:
# ObjectiveC (associated objects, autoreleasepool), UIKit (UIApplication and its notifications),
# Combine and SwiftUI (the names that meet ours), RealityKit (its Event), CoreGraphics.
#
# With those modules on the search path, `#if canImport(ObjectiveC)`, `canImport(UIKit)` and the
# others take their Apple branch, and every module of the package, and each test target with such
# a branch, is compiled to SIL as SwiftPM builds it: Swift 6, the manifest's upcoming features,
# warnings as errors. Then snippets (.ci/apple-standins/snippets, and the docs' examples that
# import SwiftUI, Combine or RealityKit) check that the names the docs give for such files
# resolve, and that the plain names really are ambiguous there (so that the stand-ins keep
# meeting ours). ChannelIndex.swift, which hashes pointer bits, is compiled for a 32-bit CPU, as
# for arm64_32; and UIApplication.shared must be unavailable in app extensions, which no compiler
# checks here. CONTRIBUTING.md says what this cannot catch.
#
#   bash .ci/apple-standins.sh
set -euo pipefail
shopt -s nullglob
cd "$(dirname "${BASH_SOURCE[0]}")/.."

standins=.ci/apple-standins
out=.build/apple-standins
rm -rf "$out"
mkdir -p "$out/modules"

# The manifest's settings (Package.swift), warnings as errors, and what SwiftPM passes to every
# target.
language=(
  -swift-version 6
  -enable-upcoming-feature ExistentialAny
  -enable-upcoming-feature MemberImportVisibility
  -enable-upcoming-feature InternalImportsByDefault
  -warnings-as-errors
)
# The C target that EventTestSupport imports (Tests/HeapStatistics), with the module map that
# SwiftPM would generate for it.
mkdir -p "$out/HeapStatistics"
printf 'module HeapStatistics {\n  umbrella "%s"\n  export *\n}\n' \
  "$PWD/Tests/HeapStatistics/include" >"$out/HeapStatistics/module.modulemap"
# EventCore's C target (Sources/CEventCore) the same way.
mkdir -p "$out/CEventCore"
printf 'module CEventCore {\n  umbrella "%s"\n  export *\n}\n' \
  "$PWD/Sources/CEventCore/include" >"$out/CEventCore/module.modulemap"
flags=("${language[@]}" -package-name events -enable-testing -I "$out/modules"
  -Xcc "-fmodule-map-file=$out/HeapStatistics/module.modulemap"
  -Xcc "-fmodule-map-file=$out/CEventCore/module.modulemap")

# SwiftUI re-exports Combine, so Combine comes first.
for name in ObjectiveC CoreGraphics UIKit Combine SwiftUI RealityKit; do
  swiftc -emit-module -parse-as-library -swift-version 6 -I "$out/modules" -module-name "$name" \
    "$standins/modules/$name.swift" -emit-module-path "$out/modules/$name.swiftmodule"
done

# Type-checks a module's sources, SIL diagnostics included (definite initialisation, literal
# overflow), and emits its interface for the modules that import it.
module() {
  local name=$1 path=$2
  local sources
  mapfile -t sources < <(find "$path" -name '*.swift' | sort)
  echo "  $name"
  swiftc -wmo -emit-module -parse-as-library "${flags[@]}" -module-name "$name" \
    "${sources[@]}" -emit-module-path "$out/modules/$name.swiftmodule"
}

echo "Type-checking with the Apple stand-ins:"
for name in EventCore EventRAII EventBroadcast EventTyped EventConditions Events; do
  module "$name" "Sources/$name"
done
module events_demo Sources/events-demo
module EventTestSupport Tests/EventTestSupport
# Test targets with a branch of their own that the stand-ins switch; the others compile the same
# here as in the normal build.
for path in Tests/*Tests; do
  if grep -rqE 'canImport\((ObjectiveC|UIKit|Combine|SwiftUI|RealityKit|CoreGraphics)\)' "$path"
  then
    module "$(basename "$path")" "$path"
  fi
done

# The examples in README.md and the catalogs that import SwiftUI, Combine or RealityKit compile
# here too, whole, as files, with the stand-ins that make `canImport` take its Apple branch.
python3 - "$out/docs" README.md Sources/*/*.docc/*.md <<'PY'
import os, re, sys
out, paths = sys.argv[1], sys.argv[2:]
os.makedirs(out, exist_ok=True)
apple = re.compile(r"^import (SwiftUI|Combine|RealityKit)$", re.M)
for path in paths:
    text = open(path, encoding="utf-8").read()
    for match in re.finditer(r"^```swift\n(.*?)^```", text, re.M | re.S):
        if apple.search(match.group(1)):
            line = text.count("\n", 0, match.start()) + 2
            name = re.sub(r"\W", "-", path) + f"-{line}.swift"
            with open(os.path.join(out, name), "w", encoding="utf-8") as file:
                file.write(f'#sourceLocation(file: "{path}", line: {line})\n' + match.group(1))
PY

echo "Snippets:"
for snippet in "$standins"/snippets/*.swift "$out"/docs/*.swift; do
  expected=$(sed -n 's|^// expect-error: ||p' "$snippet")
  echo "  $(basename "$snippet")"
  if [ -z "$expected" ]; then
    swiftc -typecheck -parse-as-library "${flags[@]}" "$snippet"
  elif log=$(swiftc -typecheck -parse-as-library "${flags[@]}" "$snippet" 2>&1); then
    echo "error: $snippet compiled, but should fail with: $expected" >&2
    exit 1
  elif ! grep -qF "$expected" <<<"$log"; then
    echo "error: $snippet failed, but not with: $expected" >&2
    echo "$log" >&2
    exit 1
  fi
done

# arm64_32 (watchOS devices) has a 32-bit Int and UInt. No Apple target compiles here without
# its SDK, but Embedded Swift's standard library for a 32-bit CPU ships with the toolchain: the
# file that hashes pointer bits is compiled to SIL there (where literal overflow is diagnosed),
# against stand-ins for the two types it takes from the rest of the package (.ci/apple-standins/
# 32-bit; give them what ChannelIndex.swift starts using).
echo "32-bit:"
echo "  ChannelIndex.swift"
embedded=(-target armv7-none-none-eabi -enable-experimental-feature Embedded -wmo -parse-as-library)
mkdir -p "$out/32-bit"
swiftc "${embedded[@]}" "${language[@]}" -emit-module -module-name EventCore \
  "$standins/32-bit/EventCore.swift" -emit-module-path "$out/32-bit/EventCore.swiftmodule"
swiftc "${embedded[@]}" "${language[@]}" -emit-sil -o /dev/null -I "$out/32-bit" \
  -module-name EventBroadcast Sources/EventBroadcast/ChannelIndex.swift \
  "$standins/32-bit/Channel.swift"

# Availability in app extensions is checked only when compiling for an Apple target: each
# declaration that uses UIApplication.shared must be unavailable in every kind of extension
# (visionOS and Mac Catalyst extensions inherit iOSApplicationExtension's).
for file in $(grep -rlF 'UIApplication.shared' --include='*.swift' Sources || true); do
  for platform in iOSApplicationExtension tvOSApplicationExtension; do
    if ! grep -qF "@available($platform, unavailable)" "$file"; then
      echo "error: $file uses UIApplication.shared without @available($platform, unavailable)" >&2
      exit 1
    fi
  done
done

echo "The Apple-only branches type-check against the stand-ins."
