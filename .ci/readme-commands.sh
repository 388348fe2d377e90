#!/usr/bin/env bash
# Runs the README's first commands as a new user would: on a fresh copy of the committed HEAD,
# in a folder of its own with a cold build folder, in the README's order.
#
#   bash .ci/readme-commands.sh
#
# The commands are read from the README's first ```sh block (comments dropped), so the README
# and this check cannot drift apart. Nothing is shared with the working tree's .build: a target
# that builds only thanks to what another command built first fails here as it would for a user.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

fail() {
  echo "error: $*" >&2
  exit 1
}

commands=()
while IFS= read -r command; do
  commands+=("$command")
done < <(awk '
  /^```sh$/ && !seen { inside = 1; seen = 1; next }
  inside && /^```/ { exit }
  inside { sub(/[[:space:]]*#.*$/, ""); if (length($0) > 0) print }
' "$root/README.md")
((${#commands[@]} > 0)) || fail "README.md has no \`\`\`sh block of commands"

# Folder named Events: the package's identity, as in a user's clone.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
clone="$scratch/Events"
head="$(git -C "$root" rev-parse HEAD)"
git init --quiet "$clone"
git -C "$clone" fetch --quiet "$root" HEAD
[[ $(git -C "$clone" rev-parse FETCH_HEAD) == "$head" ]] || fail "could not fetch HEAD ($head)"
git -C "$clone" checkout --quiet --detach FETCH_HEAD
[[ -z $(git -C "$root" status --porcelain) ]] ||
  echo "note: uncommitted changes in $root are not part of this check (committed HEAD only)"

echo "Fresh copy of $head in $clone; the README's commands, in order:"
for command in "${commands[@]}"; do
  echo "\$ $command"
  (cd "$clone" && bash -c "$command") || fail "the README's command failed on a fresh clone: $command"
done
