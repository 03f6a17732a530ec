"""Sphinx configuration of the zoo-games documentation site.

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (``pip install -e
".[docs]"`` first), which is what ``scripts/ci_docs.sh`` runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))  # the zoo_games of this checkout, for autodoc
sys.path.insert(0, str(DOCS / "_scripts"))

import gen_env_pages  # noqa: E402

import zoo_games  # noqa: E402
from zoo_games.catalog import GAMES  # noqa: E402

project = "zoo-games"
author = "zoo-games developers"
copyright = "zoo-games developers, MIT licence"
release = zoo_games.__version__
version = release

extensions = [
    # myst_nb includes myst_parser: Markdown pages, and notebooks with their stored outputs.
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]

exclude_patterns = ["_build", "_scripts", "results/*.csv", "jupyter_execute"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"

# Markdown: "#anchor" links to headings (the pages use them), and no execution of notebooks:
# the site shows the outputs stored in tutorials/*.ipynb.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
nb_execution_mode = "off"

# API reference: every module of the package, from its docstrings. The rllib subpackage needs
# the optional rllib extra; its imports are mocked so the site builds without it.
autosummary_generate = True
autosummary_imported_members = False
autodoc_mock_imports = ["ray", "torch"]
# Each object is documented once, in the module that defines it: a package that re-exports
# names in its __all__ (zoo_games.agents) would otherwise document them twice.
autodoc_default_options = {"members": True, "show-inheritance": True, "ignore-module-all": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "furo"
html_title = f"zoo-games {release}"
html_static_path = ["_static"]

# Internal links are checked by the build itself: MyST resolves every link to a page, to a
# heading (``page.md#anchor``) and to an image, and warns (an error under -W) when one is
# broken. Sphinx's linkcheck builder is not used: it reports local links as "unchecked" and
# would fetch external ones, and the build must work offline.


def _generate_pages(app: object) -> None:
    """Write the environment pages and copy the tutorials before Sphinx reads the sources."""
    gen_env_pages.write_environment_pages()
    gen_env_pages.copy_tutorials()


def _environment_docstring_as_link(app, what, name, obj, options, lines) -> None:
    """Replace an environment module's docstring by a link to its page.

    The docstring is Markdown in PettingZoo's format, made into the environment's page by
    ``gen_env_pages.py``; autodoc would read it as reStructuredText.
    """
    if what == "module" and name in GAMES.values():
        page = name.rsplit(".", 1)[1]
        link = f"Documented on its environment page, :doc:`/environments/{page}`."
        lines[:] = [lines[0], "", link]


def setup(app):
    """Run the page generator at the start of every build; keep Markdown out of autodoc."""
    app.connect("builder-inited", _generate_pages)
    app.connect("autodoc-process-docstring", _environment_docstring_as_link)
