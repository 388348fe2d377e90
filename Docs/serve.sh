#!/usr/bin/env bash
# Serves the site built by Docs/build.sh on http://127.0.0.1:PORT/documentation/ until Ctrl-C.
#
#   bash Docs/serve.sh [PORT]     # default port 8000
#
# DocC's output is a JavaScript app: every page is an `index.html` that fetches its content
# from `data/…json`. build.sh converts with `--transform-for-static-hosting`, which writes an
# `index.html` into every page's folder, so any static file server works (opening the files
# straight from disk does not: the app needs HTTP). The site lives at the server's root; to
# host it under a sub-path (GitHub Pages: https://you.github.io/events/), rebuild with
# `HOSTING_BASE_PATH=/events bash Docs/build.sh` and serve the site's parent directory so the
# site sits at that sub-path.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
site="$root/.build/docs-site"
port="${1:-8000}"

[[ -f $site/index.html ]] || {
  echo "error: no site at .build/docs-site; build it first: bash Docs/build.sh" >&2
  exit 1
}

echo "Serving .build/docs-site at http://127.0.0.1:$port/documentation/ (Ctrl-C stops)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site"
