"""Before Qt starts on X11: which system libraries its xcb platform plugin cannot find.

Without them Qt aborts with "Could not load the Qt platform plugin "xcb"" (naming at best
one library). This check asks the dynamic linker (`ldd`) about the plugin PySide6 ships
and prints every missing library with the Debian/Ubuntu package that provides it and an
`apt-get` line, before Qt gets the chance to abort.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

# Sonames whose package name does not follow the usual "libname + version" rule.
PACKAGE_EXCEPTIONS = {
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libgssapi_krb5.so.2": "libgssapi-krb5-2",
}
NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)
SONAME = re.compile(r"^(?P<name>.+?)\.so\.(?P<version>\d+)")


def xcb_plugin() -> Path | None:
    """The xcb platform plugin of the installed PySide6 (None when it has none)."""
    from PySide6.QtCore import QLibraryInfo

    plugin = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms" / "libqxcb.so"
    return plugin if plugin.exists() else None


def missing_libraries(plugin: Path) -> list[str]:
    """Sonames the dynamic linker cannot resolve for `plugin`, in ldd's order, without repeats."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return []
    try:
        output = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return list(dict.fromkeys(NOT_FOUND.findall(output)))


def debian_package(soname: str) -> str:
    """'libxcb-cursor.so.0' → 'libxcb-cursor0'; 'libxkbcommon-x11.so.0' → 'libxkbcommon-x11-0'."""
    if soname in PACKAGE_EXCEPTIONS:
        return PACKAGE_EXCEPTIONS[soname]
    match = SONAME.match(soname)
    if not match:
        return soname
    name, version = match["name"].lower(), match["version"]
    return f"{name}-{version}" if name[-1].isdigit() else f"{name}{version}"


def advice(missing: list[str]) -> str:
    packages = sorted({debian_package(soname) for soname in missing})
    lines = ["Chartside cannot open its window: Qt's X11 (xcb) platform plugin needs these system libraries,",
             "which are not installed:"]
    lines += [f"  {soname}  (package {debian_package(soname)})" for soname in missing]
    lines += ["Install them (Debian/Ubuntu) with:",
              f"  sudo apt-get install -y {' '.join(packages)}",
              "Without a display, `chartside selftest` and `chartside ask` work as they are."]
    return "\n".join(lines)


def uses_xcb() -> bool:
    """Whether Qt is about to pick the xcb plugin (an X display, no other platform asked for)."""
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform:
        return platform.split(":")[0] == "xcb"
    return bool(os.environ.get("DISPLAY")) and not os.environ.get("WAYLAND_DISPLAY")


def check_display_libraries(stream=None) -> list[str]:
    """Print what is missing (to stderr) when Qt is about to use xcb; return the sonames."""
    if not uses_xcb():
        return []
    plugin = xcb_plugin()
    missing = missing_libraries(plugin) if plugin else []
    if missing:
        print(advice(missing), file=stream or sys.stderr, flush=True)
    return missing
