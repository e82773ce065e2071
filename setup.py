"""Build of the Python package `moreau`: the pure-Python files of python/moreau plus the compiled
module moreau._moreau, built by CMake (the same CMakeLists.txt as the C++ library).

Two ways to get the compiled module:

* MOREAU_CMAKE_BUILD_DIR=<an already configured build folder of this source version>: build only
  the `_moreau` target there (nothing is recompiled when that folder is up to date) and copy it.
  The packaging test and CI use this so the library is not compiled twice.
* otherwise: configure a fresh build folder under setuptools' build_temp with the tests, the
  benchmarks and the program off, build only `_moreau` (ccache is used when installed).

The package version is the CMake project version (project(moreau VERSION ...)).
"""
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def cmake_project_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"project\(moreau\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)", text)
    if not match:
        raise RuntimeError("CMakeLists.txt: no project(moreau VERSION x.y.z)")
    return match.group(1)


VERSION = cmake_project_version()


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        build_dir = os.environ.get("MOREAU_CMAKE_BUILD_DIR")
        if build_dir:
            build_dir = Path(build_dir).resolve()
            self._check_reusable(build_dir)
        else:
            build_dir = Path(self.build_temp).resolve() / "cmake"
            self._configure(build_dir)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "_moreau", "-j", jobs],
                       check=True)
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = build_dir / "python" / "moreau" / ("_moreau" + suffix)
        if not built.exists():
            raise RuntimeError(f"{built} was not built: is {build_dir} configured for "
                               f"Python {sys.version_info.major}.{sys.version_info.minor}?")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)

    @staticmethod
    def _check_reusable(build_dir):
        header = build_dir / "include" / "moreau" / "version.hpp"
        if not (build_dir / "CMakeCache.txt").exists() or not header.exists():
            raise RuntimeError(f"MOREAU_CMAKE_BUILD_DIR={build_dir} is not a configured moreau build")
        match = re.search(r'#define MOREAU_VERSION "([^"]*)"', header.read_text())
        if not match or match.group(1) != VERSION:
            raise RuntimeError(f"MOREAU_CMAKE_BUILD_DIR={build_dir} builds moreau "
                               f"{match.group(1) if match else '?'}, this source is {VERSION}")

    def _configure(self, build_dir):
        args = ["cmake", "-S", str(ROOT), "-B", str(build_dir),
                "-DCMAKE_BUILD_TYPE=Release",
                f"-DPython3_EXECUTABLE={sys.executable}",
                "-DMOREAU_BUILD_TESTS=OFF", "-DMOREAU_BUILD_BENCH=OFF", "-DMOREAU_BUILD_PYTHON=ON"]
        if shutil.which("ccache"):
            args.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        subprocess.run(args, check=True)


setup(
    version=VERSION,
    packages=["moreau"],
    package_dir={"moreau": "python/moreau"},
    ext_modules=[CMakeExtension("moreau._moreau")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
    # Not ./build, which is the CMake build folder of the README.
    options={"build": {"build_base": "build-python"}},
)
