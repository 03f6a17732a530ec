#!/usr/bin/env bash
# Build the documentation site with every warning an error. MyST resolves every link between
# pages, to headings and to images at build time and warns on a broken one, so this also
# checks the internal links; external links are never fetched.
# Needs the docs extra: pip install -e ".[docs]". Output: docs/_build/html/index.html
set -euo pipefail
cd "$(dirname "$0")/.."
python -m sphinx -W --keep-going -b html docs docs/_build/html
