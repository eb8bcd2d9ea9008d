"""The examples of the Python manual run as written."""

import doctest

from conftest import ROOT, binary


def test_the_manuals_examples_run():
    result = doctest.testfile(
        str(ROOT / "docs" / "python.md"),
        module_relative=False,
        globs={"QUASAR": str(binary())},
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        raise_on_error=False,
    )
    assert result.attempted >= 30
    assert result.failed == 0
