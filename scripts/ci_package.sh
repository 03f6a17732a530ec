#!/usr/bin/env bash
# Packaging as users receive it: build the sdist and the wheel, install the wheel alone in a
# fresh virtualenv outside the repository, and run scripts/wheel_smoke.py with that Python
# from a temporary directory (so the checkout can never be imported by mistake).
# Needs the `build` package (in the test extra). Run from anywhere: scripts/ci_package.sh
set -euo pipefail
repository=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== build the sdist and the wheel"
python -m build --outdir "$work/dist" "$repository"
wheels=("$work"/dist/*.whl)
sdists=("$work"/dist/*.tar.gz)
if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ] || [ ! -f "${sdists[0]}" ]; then
  echo "ci_package: expected one wheel and one sdist in $work/dist" >&2
  exit 1
fi

echo "== install ${wheels[0]##*/} in a fresh virtualenv"
python -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q "${wheels[0]}"

echo "== smoke test of the installed wheel"
cp "$repository/scripts/wheel_smoke.py" "$work/"
cd "$work"
# The baselines the repository holds, which the wheel must ship (one folder per variant label).
mapfile -t baselines < <(find "$repository/zoo_games/alphazero/baselines" -mindepth 1 -maxdepth 1 \
  -type d -printf '%f\n' 2>/dev/null)
"$work/venv/bin/python" wheel_smoke.py "${baselines[@]}"
