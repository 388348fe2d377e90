#!/usr/bin/env bash
# Builds the combined documentation site into .build/docs-site with the toolchain's own `docc`.
#
#   bash Docs/build.sh            # from the repository root, or from anywhere
#
# Steps: dump public symbol graphs with SwiftPM, convert each module's catalog on its own
# (`--warnings-as-errors`, so a broken link fails the build), then merge the archives into one
# static site with one sidebar. No SwiftPM plugin is needed.
#
# Environment:
#   DOCC               the docc binary (default: `docc` on PATH, else `xcrun docc` on macOS)
#   HOSTING_BASE_PATH  serve the site under a sub-path, e.g. `/events` for
#                      https://example.github.io/events/ (default: the server root)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

site="$root/.build/docs-site"
work="$root/.build/docs-work"

# The modules, each after the modules its documentation links to: their archives resolve its
# cross-module links (``/EventCore/Subscription``).
modules=(EventCore EventRAII EventBroadcast EventTyped EventConditions EventTesting Events)

# (A function rather than an associative array: macOS still ships bash 3.2.)
dependencies_of() {
  case $1 in
    EventCore) ;;
    EventRAII | EventBroadcast | EventTyped) echo EventCore ;;
    EventConditions) echo EventCore EventTyped ;;
    EventTesting) echo EventCore EventRAII EventTyped ;;
    Events) echo EventCore EventRAII EventBroadcast EventTyped EventConditions ;;
    *) fail "no dependencies listed for module $1" ;;
  esac
}

# The umbrella's catalog is the site's front page and guides, so it lives in Docs/ beside this
# script; every other module documents itself in Sources/<Module>/<Module>.docc.
catalog_of() {
  if [[ $1 == Events ]]; then
    echo "$root/Docs/Events.docc"
  else
    echo "$root/Sources/$1/$1.docc"
  fi
}

fail() {
  echo "error: $*" >&2
  exit 1
}

step() {
  echo "==> $*" >&2
}

if [[ -n ${DOCC:-} ]]; then
  docc=("$DOCC")
elif command -v docc >/dev/null; then
  docc=(docc)
elif command -v xcrun >/dev/null; then
  docc=(xcrun docc)
else
  fail "no docc found: put the Swift toolchain's usr/bin on PATH or set DOCC"
fi

missing=()
for module in "${modules[@]}"; do
  [[ -d $(catalog_of "$module") ]] || missing+=("$(catalog_of "$module")")
done
if ((${#missing[@]} > 0)); then
  printf 'error: missing documentation catalog: %s\n' "${missing[@]#"$root/"}" >&2
  fail "every module needs its catalog, with a landing page named after the module"
fi

start=$SECONDS
rm -rf "$work"
mkdir -p "$work/symbol-graphs" "$work/archives"
touch "$work/started"

step "Dumping public symbol graphs (log: .build/docs-work/dump-symbol-graph.log)"
# Public symbols only: `package` and internal declarations are implementation, not API.
# Extension blocks give `NotificationCenter` (extended by EventRAII) a page of its own.
dump_log="$work/dump-symbol-graph.log"
if ! swift package dump-symbol-graph \
  --minimum-access-level public \
  --emit-extension-block-symbols >"$dump_log" 2>&1; then
  # The command builds the library targets only, then also tries the test bundles' aggregate
  # modules (`EventsPackageTests`, `EventsPackageDiscoveredTests`), which exist only after
  # `swift build --build-tests`. Those have no API to document; any other error is fatal.
  other_errors="$(grep '^error:' "$dump_log" |
    grep -Ev "^error: Failed to emit symbol graph for '[A-Za-z0-9_]+Package(Discovered)?Tests'" ||
    true)"
  if [[ -n $other_errors ]] || ! grep -q '^Files written to ' "$dump_log"; then
    cat "$dump_log" >&2
    fail "swift package dump-symbol-graph failed"
  fi
fi
graphs="$(sed -n 's/^Files written to //p' "$dump_log" | tail -n 1)"
[[ -d $graphs ]] || {
  cat "$dump_log" >&2
  fail "could not find the symbol graph directory in $dump_log"
}

for module in "${modules[@]}"; do
  # Only this module's graphs: its own, plus `<Module>@<Other>` for extensions of other
  # modules' types. Another module's graph here would document its symbols twice.
  module_graphs="$work/symbol-graphs/$module"
  mkdir -p "$module_graphs"
  [[ $graphs/$module.symbols.json -nt $work/started ]] ||
    fail "swift package dump-symbol-graph wrote no fresh graph for $module (see $dump_log)"
  cp "$graphs/$module.symbols.json" "$module_graphs/"
  shopt -s nullglob
  for extension_graph in "$graphs/$module@"*.symbols.json; do
    cp "$extension_graph" "$module_graphs/"
  done
  shopt -u nullglob
  # On Linux, `NotificationCenter` and friends are declared in FoundationEssentials, which
  # Foundation re-exports; on Apple platforms they are declared in Foundation. Users import
  # Foundation everywhere, so present the extended types as Foundation's: the page reads
  # "Foundation", and ``Foundation/NotificationCenter`` links and URLs are the same on every
  # platform. DocC reads the extended module from the file name and these fields.
  essentials="$module_graphs/$module@FoundationEssentials.symbols.json"
  if [[ -f $essentials ]]; then
    [[ ! -f $module_graphs/$module@Foundation.symbols.json ]] ||
      fail "$module extends types of both Foundation and FoundationEssentials; merge their" \
        "symbol graphs here before renaming"
    sed -E \
      -e 's/("extendedModule"[[:space:]]*:[[:space:]]*")FoundationEssentials"/\1Foundation"/g' \
      -e 's/("targetFallback"[[:space:]]*:[[:space:]]*")FoundationEssentials\./\1Foundation./g' \
      "$essentials" >"$module_graphs/$module@Foundation.symbols.json"
    rm "$essentials"
  fi

  link_options=()
  for dependency in $(dependencies_of "$module"); do
    link_options+=(--dependency "$work/archives/$dependency.doccarchive")
  done
  hosting_options=(--transform-for-static-hosting)
  if [[ -n ${HOSTING_BASE_PATH:-} ]]; then
    hosting_options+=(--hosting-base-path "$HOSTING_BASE_PATH")
  fi

  step "Converting $module"
  "${docc[@]}" convert "$(catalog_of "$module")" \
    --additional-symbol-graph-dir "$module_graphs" \
    --output-path "$work/archives/$module.doccarchive" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.events.$module" \
    --warnings-as-errors \
    --enable-experimental-external-link-support \
    ${link_options[@]+"${link_options[@]}"} \
    "${hosting_options[@]}" 2>&1 | cat -s ||
    fail "docc convert failed for $module ($(catalog_of "$module" | sed "s|^$root/||")); see above"
done

step "Merging into .build/docs-site"
archives=()
for module in "${modules[@]}"; do
  archives+=("$work/archives/$module.doccarchive")
done
rm -rf "$work/site.doccarchive"
"${docc[@]}" merge "${archives[@]}" \
  --output-path "$work/site.doccarchive" \
  --synthesized-landing-page-name "Events" \
  --synthesized-landing-page-kind "Package" \
  --synthesized-landing-page-topics-style list 2>&1 | cat -s
# The synthesized front page lists the modules alphabetically, the start-here page last; lead
# with it and order the modules by job instead.
python3 "$root/Docs/front-page.py" "$work/site.doccarchive" ||
  fail "could not rewrite the front page; see above"
# The archive's root `index.html` is DocC's app, which has no page for `/` and shows "not
# found" there. Every page has its own copy of the app (static hosting), so the root one can
# become a redirect to the front page, relative so that it works under a hosting base path.
cat >"$work/site.doccarchive/index.html" <<'HTML'
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Events documentation</title>
<meta http-equiv="refresh" content="0; url=documentation/">
</head>
<body><p><a href="documentation/">Events documentation</a></p></body>
</html>
HTML
rm -rf "$site"
mv "$work/site.doccarchive" "$site"

step "Built .build/docs-site in $((SECONDS - start))s; look at it with: bash Docs/serve.sh"
