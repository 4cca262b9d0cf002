"""What a run ran on: the CPU model named in every report header (issue 30: it always read "unknown")."""
import platform

from theoryverify import environment


def test_cpu_model_is_read_from_proc_cpuinfo(tmp_path, monkeypatch):
    monkeypatch.setattr(platform, "processor", lambda: "x86_64")
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R)  Gold 6248 @ 2.50GHz\n"
                    "\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R)  Gold 6248 @ 2.50GHz\n")
    assert environment.cpu_model(info) == "Intel(R) Xeon(R) Gold 6248 @ 2.50GHz"


def test_cpu_model_falls_back_to_platform_then_unknown(tmp_path, monkeypatch):
    (tmp_path / "no-model").write_text("processor\t: 0\nmodel name\t:   \n")
    monkeypatch.setattr(platform, "processor", lambda: "arm")
    assert environment.cpu_model(tmp_path / "absent") == "arm"
    assert environment.cpu_model(tmp_path / "no-model") == "arm"
    monkeypatch.setattr(platform, "processor", lambda: "")
    assert environment.cpu_model(tmp_path / "absent") == "unknown"


def test_the_cpu_device_names_the_model(monkeypatch):
    monkeypatch.setattr(environment, "cpu_model", lambda: "Some CPU 9000")
    assert environment.device_info("cpu")["name"] == f"CPU ({platform.machine()}, Some CPU 9000)"
