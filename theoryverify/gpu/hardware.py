"""What the device is: model, memory, driver and CUDA versions, and its datasheet peak rates.

The peaks turn a sweep's counted FLOPs and bytes per step into "fraction of the device's arithmetic rate /
memory bandwidth".  They are NVIDIA datasheet figures (dense, no sparsity); an unknown device gets none and
the report gives absolute rates only.
"""
from __future__ import annotations

import os
import platform
import shutil
import subprocess
from dataclasses import asdict, dataclass, field

#: (substring of the CUDA device name, lower case) -> peaks: bytes/s of memory bandwidth, FLOP/s
#: float64 (vector units; tensor-core FP64 is twice that, used only by matmuls), FLOP/s float32.
PEAKS: tuple[tuple[str, dict[str, float]], ...] = (
    ("h200", {"bandwidth": 4.8e12, "fp64": 34e12, "fp64_tensor": 67e12, "fp32": 67e12,
              "source": "NVIDIA H200 datasheet (SXM)"}),
    ("h100 pcie", {"bandwidth": 2.0e12, "fp64": 26e12, "fp64_tensor": 51e12, "fp32": 51e12,
                   "source": "NVIDIA H100 datasheet (PCIe)"}),
    ("h100 nvl", {"bandwidth": 3.9e12, "fp64": 30e12, "fp64_tensor": 60e12, "fp32": 60e12,
                  "source": "NVIDIA H100 datasheet (NVL)"}),
    ("h100", {"bandwidth": 3.35e12, "fp64": 34e12, "fp64_tensor": 67e12, "fp32": 67e12,
              "source": "NVIDIA H100 datasheet (SXM5, HBM3)"}),
    ("a100", {"bandwidth": 2.0e12, "fp64": 9.7e12, "fp64_tensor": 19.5e12, "fp32": 19.5e12,
              "source": "NVIDIA A100 datasheet (80 GB SXM)"}),
)


@dataclass(frozen=True)
class Hardware:
    """The device a run used (``kind`` "cuda" or "cpu") and, for a known GPU, its peaks."""

    kind: str
    name: str
    memory_gib: float | None = None
    driver: str | None = None
    cuda: str | None = None
    torch: str = ""
    cpu: str = ""
    cpu_threads: int = 1
    peaks: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)


def _nvidia_smi_driver() -> str | None:
    exe = shutil.which("nvidia-smi")
    if not exe:
        return None
    try:
        out = subprocess.run([exe, "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return out.splitlines()[0].strip() if out else None


def peaks_for(name: str) -> dict:
    low = name.lower()
    for key, peaks in PEAKS:
        if key in low:
            return dict(peaks)
    return {}


def describe(device: str) -> Hardware:
    import torch

    cpu = f"{platform.machine()} {platform.processor() or ''}".strip()
    threads = torch.get_num_threads()
    if device == "cuda":
        props = torch.cuda.get_device_properties(0)
        return Hardware(kind="cuda", name=props.name, memory_gib=round(props.total_memory / 2**30, 1),
                        driver=_nvidia_smi_driver(), cuda=torch.version.cuda, torch=torch.__version__,
                        cpu=cpu, cpu_threads=threads, peaks=peaks_for(props.name))
    return Hardware(kind="cpu", name=f"CPU ({cpu}, {os.cpu_count()} cores)", torch=torch.__version__, cpu=cpu,
                    cpu_threads=threads)
