"""numba's on-disk cache of the kernels, kept fresh by every source file they compile from.

numba stamps a cached function with the contents of its own source file only. A kernel also
compiles what it imports: a weight of the game's evaluation module, a rule function of the
rules core, a helper of :mod:`zoo_games.batched.words`. Had only that file been checked, an
edit to one of those would have gone on loading the old machine code. :func:`watch` gives
numba a cache locator for the functions defined in some folders, whose stamp is a hash of
every Python file in all of them: any edit there recompiles the functions on their next use,
and an unchanged tree loads them from the cache as before. The cache stays where numba
would put it (the ``__pycache__`` beside the module, or ``NUMBA_CACHE_DIR``).

numba tries its locator classes (``numba.core.caching._CacheLocator``) in order for every
function compiled with ``cache=True``; this one answers only for the watched folders, so the
rest of the process's numba code is cached as numba always does. (``NUMBA_CACHE_LOCATOR_CLASSES``,
when set, replaces numba's list, and this locator with it.)
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from numba.core import caching


@cache
def tree_stamp(folders: tuple[Path, ...]) -> str:
    """A hash of the names and contents of every Python file under ``folders``."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            digest.update(str(path.relative_to(folder.parent)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


class SourceTreeLocator(caching._CacheLocator):
    """Numba's own locator for a function of the watched folders, stamped by all of them."""

    #: The folders whose functions this locator caches (set by :func:`watch`).
    folders: tuple[Path, ...] = ()

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def ensure_cache_path(self) -> None:
        """Make the cache folder numba's own locator picked."""
        self._inner.ensure_cache_path()

    def get_cache_path(self) -> str:
        """The cache folder numba's own locator picked."""
        return str(self._inner.get_cache_path())

    def get_source_stamp(self) -> str:
        """What the cache index must match to be used: the watched folders' hash."""
        return tree_stamp(self.folders)

    def get_disambiguator(self) -> str:
        """Numba's own (the function's line), for functions of the same name in a file."""
        return str(self._inner.get_disambiguator())

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> SourceTreeLocator | None:
        """The locator of a function defined in a watched folder, else ``None``."""
        source = Path(py_file).resolve()
        if not any(source.is_relative_to(folder) for folder in cls.folders):
            return None
        numba_locators: list[Any] = caching.CacheImpl._locator_classes
        for other in numba_locators:
            if issubclass(other, SourceTreeLocator):
                continue
            inner = other.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner)
        return None


def watch(*folders: Path) -> None:
    """Key numba's cache of the functions defined under ``folders`` on all their files.

    Must run before those functions are decorated (numba picks a function's locator then).
    Watching the same folders again changes nothing.
    """
    resolved = tuple(sorted(Path(folder).resolve() for folder in folders))
    locators: list[Any] = caching.CacheImpl._locator_classes
    if any(getattr(locator, "folders", None) == resolved for locator in locators):
        return
    locators.insert(0, type("SourceTreeLocator", (SourceTreeLocator,), {"folders": resolved}))
