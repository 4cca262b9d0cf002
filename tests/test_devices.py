"""Device resolution (theoryverify/devices.py): a torch built without CUDA and ROCm answers ``auto`` as "cpu"
without being imported (importing torch cost ~1.5 CPU-s in every verify/report process, for papers that never use
it); any doubt about the build asks torch itself."""
import subprocess
import sys
import textwrap

import pytest
import torch

from theoryverify.devices import cuda_absent_from_build, resolve_device

CPU_BUILD = """\
    from typing import Optional

    __version__ = '2.13.0+cpu'
    debug = False
    cuda: Optional[str] = None
    git_version = 'abc'
    hip: Optional[str] = None
    """


@pytest.mark.parametrize("text, absent", [
    (CPU_BUILD, True),
    (CPU_BUILD.replace("cuda: Optional[str] = None", "cuda: Optional[str] = '12.4'"), False),  # a CUDA build
    (CPU_BUILD.replace("hip: Optional[str] = None", "hip: Optional[str] = '6.2.4'"), False),  # ROCm answers cuda too
    (CPU_BUILD.replace("cuda: Optional[str] = None", "cuda = None"), True),  # a plain assignment
    (CPU_BUILD.replace("    cuda: Optional[str] = None\n", ""), False),  # no cuda field: doubt
    (CPU_BUILD.replace("cuda: Optional[str] = None", "cuda = _detect()"), False),  # not a literal None: doubt
    ("cuda = None\nhip = None\ndef (:\n", False),  # does not parse: doubt
])
def test_the_build_is_read_from_torch_version_and_doubt_asks_torch(tmp_path, text, absent):
    path = tmp_path / "version.py"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    assert cuda_absent_from_build(path) is absent


def test_a_missing_version_file_is_doubt(tmp_path):
    assert cuda_absent_from_build(tmp_path / "nowhere.py") is False


def test_the_installed_build_is_read_as_torch_reports_it():
    if cuda_absent_from_build():
        assert not torch.cuda.is_available() and torch.version.cuda is None and torch.version.hip is None


def test_resolve_device_answers_as_before():
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert resolve_device("auto") == expected and resolve_device("cpu") == "cpu"
    with pytest.raises(ValueError, match="unknown device 'tpu'"):
        resolve_device("tpu")
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="no CUDA device is available"):
            resolve_device("cuda")


def test_auto_on_a_cpu_build_does_not_import_torch():
    if not cuda_absent_from_build():
        pytest.skip("this torch is built with CUDA or ROCm: auto asks torch")
    code = "import sys; from theoryverify.devices import resolve_device; print(resolve_device('auto'), 'torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120).stdout
    assert out.split() == ["cpu", "False"]
