#!/usr/bin/env bash
# Proves the built site renders: serves .build/docs-site on 127.0.0.1, loads pages in headless
# Chromium and checks that each page's JavaScript drew its title.
#
#   bash Docs/check-site.sh [SCREENSHOT_DIR]
#
# DocC pages are drawn by JavaScript from `data/…json`; the raw HTML of every page is the same
# empty shell, so fetching it proves nothing. Chromium runs the app and `--dump-dom` prints the
# rendered document, whose <h1> must carry the expected title. With SCREENSHOT_DIR, also saves
# PNGs of the front page and a symbol page there.
#
# Installs Debian's `chromium` package when no Chromium is on PATH (needs root or sudo).
# Environment: CHROMIUM (the browser binary), PAGE_BUDGET_MS (virtual time each page gets to
# render, default 15000).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
site="$root/.build/docs-site"
screenshots="${1:-}"
budget="${PAGE_BUDGET_MS:-15000}"

fail() {
  echo "error: $*" >&2
  exit 1
}

# Path under the site -> the title its page must render. The site root (a redirect), the
# front page, the umbrella's page and a guide, then each module's page and one of its symbols.
# EventRAII's symbols extend Foundation's NotificationCenter; DocC drops the extension's own
# page once the module's Topics curate all its members, so the check loads a member's page.
pages=(
  "|Events"
  "documentation/|Events"
  "documentation/events/|Events"
  "documentation/events/gettingstarted/|Getting started"
  "documentation/events/performance/|Performance"
  "documentation/events/migratingfromizevent/|Migrating from IZEvent"
  "documentation/events/testingcodethatusesevents/|Testing code that uses Events"
  "documentation/eventcore/|EventCore"
  "documentation/eventcore/subscription/|Subscription"
  "documentation/eventraii/|EventRAII"
  "documentation/eventraii/foundation/notificationcenter/observe(_:object:delivery:backlog:_:fileid:line:)/|observe(_:object:delivery:backlog:_:fileID:line:)"
  "documentation/eventbroadcast/|EventBroadcast"
  "documentation/eventbroadcast/broadcaster/|Broadcaster"
  "documentation/eventtyped/|EventTyped"
  "documentation/eventtyped/event/|Event"
  "documentation/eventconditions/|EventConditions"
  "documentation/eventconditions/notificationreceiver/|NotificationReceiver"
  "documentation/eventtesting/|EventTesting"
  "documentation/eventtesting/eventrecorder/|EventRecorder"
)

[[ -f $site/index.html ]] || fail "no site at .build/docs-site; build it first: bash Docs/build.sh"

find_chromium() {
  local candidate
  for candidate in "${CHROMIUM:-}" chromium chromium-browser google-chrome; do
    if [[ -n $candidate ]] && command -v "$candidate" >/dev/null; then
      command -v "$candidate"
      return
    fi
  done
}

chromium="$(find_chromium)"
if [[ -z $chromium ]]; then
  command -v apt-get >/dev/null ||
    fail "no Chromium found and no apt-get to install it; set CHROMIUM to a Chromium binary"
  sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null || fail "installing chromium needs root or sudo"
    sudo=(sudo)
  fi
  echo "==> Installing chromium with apt-get (once per machine)" >&2
  install_start=$SECONDS
  ${sudo[@]+"${sudo[@]}"} apt-get update -qq
  ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    chromium >/dev/null
  echo "==> Installed chromium in $((SECONDS - install_start))s" >&2
  chromium="$(find_chromium)"
  [[ -n $chromium ]] || fail "apt-get installed chromium but no chromium binary is on PATH"
fi

check_start=$SECONDS
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" >/dev/null 2>&1 &
server=$!
profile="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$profile"' EXIT

base="http://127.0.0.1:$port"
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('$base/index.html', timeout=1)" \
    2>/dev/null && break
  kill -0 "$server" 2>/dev/null || fail "the HTTP server on port $port exited"
  sleep 0.1
done

browser_options=(
  --headless
  --disable-gpu
  --disable-dev-shm-usage
  --no-first-run
  --user-data-dir="$profile"
  --virtual-time-budget="$budget"
  --window-size=1280,900
)
# Chromium refuses to run as root with its sandbox on; containers and CI run as root.
((EUID != 0)) || browser_options+=(--no-sandbox)

# Prints the text of the page title that DocC's app rendered (`<h1 class="title">`), tags
# stripped. The static shell's only <h1> is the <noscript> apology, so an unrendered page
# prints nothing.
rendered_title() {
  timeout 90 "$chromium" "${browser_options[@]}" --dump-dom "$1" 2>/dev/null |
    python3 -c '
import html, re, sys
dom = re.sub(r"<noscript>.*?</noscript>", "", sys.stdin.read(), flags=re.S)
match = re.search(r"<h1\b[^>]*\bclass=\"(?:[^\"]* )?title(?: [^\"]*)?\"[^>]*>(.*?)</h1>", dom, re.S)
if match:
    print(html.unescape(re.sub(r"<[^>]+>", "", match.group(1))).strip())
'
}

failures=0
for page in "${pages[@]}"; do
  path="${page%%|*}"
  expected="${page#*|}"
  title="$(rendered_title "$base/$path" || true)"
  if [[ $title == "$expected" ]]; then
    echo "ok    /$path renders \"$expected\""
  else
    echo "FAIL  /$path renders \"${title:-no <h1> at all}\", expected \"$expected\"" >&2
    failures=$((failures + 1))
  fi
done

if [[ -n $screenshots ]]; then
  mkdir -p "$screenshots"
  # Path | file name | window size: the Performance article is tall, for its charts.
  for shot in "documentation/|front-page|1280,900" \
    "documentation/eventcore/subscription/|subscription|1280,900" \
    "documentation/events/performance/|performance|1280,3000"; do
    IFS='|' read -r path name size <<<"$shot"
    timeout 90 "$chromium" "${browser_options[@]}" --window-size="$size" \
      --screenshot="$screenshots/$name.png" "$base/$path" >/dev/null 2>&1 ||
      fail "could not take a screenshot of /$path"
    echo "saved $screenshots/$name.png"
  done
fi

# The Performance article's charts are SVG resources of the catalog: the rendered page must
# show both, and the site must serve them.
performance_dom="$(timeout 90 "$chromium" "${browser_options[@]}" --dump-dom \
  "$base/documentation/events/performance/" 2>/dev/null || true)"
for chart in delivery.svg churn.svg; do
  source="$(grep -o "src=\"[^\"]*$chart\"" <<<"$performance_dom" | head -n 1 | cut -d'"' -f2)"
  if [[ -n $source ]] &&
    python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=5)" \
      "$base$source" 2>/dev/null; then
    echo "ok    /documentation/events/performance/ shows $chart ($source)"
  else
    echo "FAIL  /documentation/events/performance/ does not show $chart" >&2
    failures=$((failures + 1))
  fi
done

((failures == 0)) || fail "$failures checks of ${#pages[@]} pages and the charts failed"
echo "All ${#pages[@]} pages render their titles ($((SECONDS - check_start))s)."
