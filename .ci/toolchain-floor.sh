#!/usr/bin/env bash
# The package declares Swift 6.2 (Package.swift), but CI builds with a newer toolchain, which
# accepts what 6.2.0 rejects. This fails on the constructs we know 6.2.0 rejects, in code (not
# comments) that a user's toolchain compiles: `weak let` (SE-0481, accepted from 6.2.3).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

declared=$(head -n 1 Package.swift)
[ "$declared" = "// swift-tools-version: 6.2" ] || {
  echo "error: Package.swift declares '$declared'; README's Requirements say 6.2" >&2
  exit 1
}

found=$(grep -rnE '^[^/]*\bweak let\b' --include='*.swift' Sources Tests Benchmarks/Sources || true)
found+=$(grep -rnE '^\s*weak let\b' --include='*.md' Docs Sources README.md || true)
if [ -n "$found" ]; then
  echo "error: 'weak let' does not compile on Swift 6.2.0 (Xcode 26.0, 26.1); use a weak var" >&2
  echo "in a struct (WeakReference in EventCore, Weak in the tests) or a mutated weak var:" >&2
  echo "$found" >&2
  exit 1
fi
echo "Toolchain floor: Swift 6.2, no 'weak let'."
