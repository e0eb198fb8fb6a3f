"""What ships is what runs: the installed packages need nothing the repository keeps
outside them (scripts/lib, tests), and the models they load lie inside `vision`, which
is how the wheel carries them (pyproject.toml's package data)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import vision
from vision.embed import DEFAULT_MODEL as EMBEDDER
from vision.printed import DEFAULT_MODEL as PRINTED_READER, LEVEL_MODEL as LEVEL_READER

ROOT = Path(__file__).resolve().parent.parent


def test_every_installed_module_imports_without_the_scripts_or_the_tests() -> None:
    code = (
        "import sys, pkgutil, importlib\n"
        "for name in ('scripts', 'tests'):\n"
        "    sys.modules[name] = None\n"
        "for package in ('companion', 'vision', 'rules'):\n"
        "    root = importlib.import_module(package)\n"
        "    for info in pkgutil.walk_packages(root.__path__, package + '.'):\n"
        "        importlib.import_module(info.name)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr


def test_the_default_models_lie_inside_the_vision_package_as_the_repository_keeps_them() -> None:
    package = Path(vision.__file__).parent
    for model in (EMBEDDER, PRINTED_READER, LEVEL_READER):
        assert model.is_file(), model
        assert model.parent == package / "models"
        assert model.resolve() == (ROOT / "models" / model.name).resolve()
