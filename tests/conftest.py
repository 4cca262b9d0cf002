"""Test configuration: the Hypothesis profile (``ci`` unless THEORYVERIFY_HYPOTHESIS says otherwise), and the
theoryverify pytest plugin (one item per paper claim) for a checkout run with nothing installed
(``PYTHONPATH=.``, e.g. on the GPU machine); an installed theoryverify registers the plugin itself (entry
point group ``pytest11``)."""
import os
from importlib import metadata

from theoryverify import profiles

profiles.load()


def _plugin_autoloaded() -> bool:
    if os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        return False
    return any(ep.value == "theoryverify.pytest_plugin" for ep in metadata.entry_points(group="pytest11"))


if not _plugin_autoloaded():
    pytest_plugins = ["theoryverify.pytest_plugin"]
