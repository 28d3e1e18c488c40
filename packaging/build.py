"""`make dist`: build the one-folder release with PyInstaller, then check the result the way
a clinic would use it: a fresh data folder, no network, the frozen `selftest`, one question
and `--screenshot` (the question must get a cited answer: [n] in its text and a source line
for each cited n). Prints the size and build time and writes dist/chartside-build.json.

Network is checked with strace (every connect() of an internet socket is a failure) when
strace is installed, else the frozen binary runs in an empty network namespace
(`unshare -rn`), where any attempt fails loudly.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DIST = REPO / "dist"
APP_DIR = DIST / "chartside"
EXE = APP_DIR / ("chartside.exe" if os.name == "nt" else "chartside")
INET_CONNECT = re.compile(r"connect\(\d+, \{sa_family=AF_INET6?")


def build() -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "PyInstaller", str(REPO / "packaging" / "chartside.spec"), "--noconfirm",
         "--log-level", "WARN", "--distpath", str(DIST), "--workpath", str(REPO / "build" / "pyinstaller")],
        check=True, cwd=REPO,
    )
    return time.perf_counter() - started


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def offline_command(args: list[str], trace: Path) -> tuple[list[str], str]:
    if shutil.which("strace"):
        return ["strace", "-f", "-qq", "--seccomp-bpf", "-e", "trace=connect", "-o", str(trace), *args], "strace"
    if shutil.which("unshare") and subprocess.run(["unshare", "-rn", "true"]).returncode == 0:
        return ["unshare", "-rn", *args], "network namespace"
    return args, "none (neither strace nor unshare available)"


def run_frozen(args: list[str], home: Path, trace: Path) -> tuple[subprocess.CompletedProcess, str, float]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_", "MEDCAT_", "PYTHON"))}
    env.update(CHARTSIDE_HOME=str(home), QT_QPA_PLATFORM=env.get("QT_QPA_PLATFORM", "offscreen"))
    command, guard = offline_command([str(EXE), *args], trace)
    started = time.perf_counter()
    proc = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    elapsed = time.perf_counter() - started
    if trace.exists():
        attempts = [line for line in trace.read_text().splitlines() if INET_CONNECT.search(line)]
        if attempts:
            raise SystemExit(f"frozen `{' '.join(args)}` tried the network:\n" + "\n".join(attempts[:5]))
    return proc, guard, elapsed


CITATION = re.compile(r"\[(\d+)\]")
SOURCE_LINE = re.compile(r"^\[(\d+)\] \S", re.MULTILINE)


def citation_problem(output: str) -> str | None:
    """Why `chartside ask` output is not a cited answer, or None when it is one: answer text
    with at least one [n] marker, followed by source lines `[n] title — address`, every
    cited n among them."""
    first_source = SOURCE_LINE.search(output)
    if first_source is None:
        return "no source line ([n] title) in the output"
    answer = output[:first_source.start()]
    cited = {int(n) for n in CITATION.findall(answer)}
    if not cited:
        return "the answer text cites no source ([n])"
    listed = {int(n) for n in SOURCE_LINE.findall(output[first_source.start():])}
    missing = sorted(cited - listed)
    return f"cited sources without a source line: {missing}" if missing else None


def check_png(path: Path) -> dict:
    from PySide6.QtGui import QImage

    image = QImage(str(path))
    if image.isNull() or image.width() < 800 or image.height() < 500:
        raise SystemExit(f"screenshot {path} is not a usable PNG ({image.width()}x{image.height()})")
    colours = {image.pixel(x, y) for x in range(0, image.width(), 37) for y in range(0, image.height(), 29)}
    if len(colours) < 8:
        raise SystemExit(f"screenshot {path} is nearly blank ({len(colours)} colours sampled)")
    return {"width": image.width(), "height": image.height(), "colours_sampled": len(colours)}


def check(report: dict) -> None:
    with tempfile.TemporaryDirectory(prefix="chartside-dist-") as tmp:
        tmp = Path(tmp)
        home = tmp / "home"
        home.mkdir()
        steps = {
            "selftest": (["selftest"], "selftest ok"),
            "ask": (["ask", "What is high blood pressure?"], None),
            "screenshot": (["--screenshot", str(tmp / "window.png")], None),
        }
        for name, (args, expected) in steps.items():
            proc, guard, elapsed = run_frozen(args, home, tmp / f"{name}.trace")
            output = proc.stdout + proc.stderr
            if proc.returncode != 0 or (expected and expected not in output):
                raise SystemExit(f"frozen `{' '.join(args)}` failed (exit {proc.returncode}):\n{output[-3000:]}")
            problem = citation_problem(proc.stdout) if name == "ask" else None
            if problem:
                raise SystemExit(f"frozen `{' '.join(args)}` gave no cited answer: {problem}\n{output[-3000:]}")
            report[name] = {"seconds": round(elapsed, 1), "network_guard": guard, "tail": output.strip()[-300:]}
            print(f"frozen {name}: ok in {elapsed:.1f} s (network guard: {guard})", flush=True)
        report["screenshot"].update(check_png(tmp / "window.png"))


def main() -> int:
    report: dict = {}
    if "--check-only" not in sys.argv:
        report["build_seconds"] = round(build(), 1)
    if not EXE.exists():
        raise SystemExit(f"{EXE} is missing: run `make dist`")
    report["size_mb"] = round(folder_size(APP_DIR) / 1e6, 1)
    check(report)
    (DIST / "chartside-build.json").write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    build_part = f"built in {report['build_seconds']:.0f} s, " if "build_seconds" in report else ""
    print(f"dist/chartside: {build_part}{report['size_mb']:.0f} MB; frozen selftest, ask and --screenshot passed offline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
