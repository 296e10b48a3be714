"""Builds the ptxfront extension with the project's own build (make python:
flex, bison and a C compiler, as for the library) and hands the module and
its stub (python/ptxfront.pyi) to setuptools to install.  pyproject.toml
holds the metadata; the version is the library's."""
import os
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(HERE, "include", "ptx", "ptx.h")) as f:
        return re.search(r'#define PTX_FRONT_VERSION "([^"]+)"', f.read()).group(1)


class MakeBuildExt(build_ext):
    """make python, for the Python running setup.py, then copy the result."""

    def build_extension(self, ext):
        make = os.environ.get("MAKE", "make")
        subprocess.check_call([make, "python", "PYTHON=" + sys.executable], cwd=HERE)
        built = os.path.join(HERE, "build", "python", "ptxfront" + sysconfig.get_config_var("EXT_SUFFIX"))
        dest = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(built, dest)
        shutil.copyfile(os.path.join(HERE, "python", "ptxfront.pyi"),
                        os.path.join(os.path.dirname(dest), "ptxfront.pyi"))


# setuptools' own files go under build/, not into the source tree
os.makedirs(os.path.join(HERE, "build", "python"), exist_ok=True)
setup(
    version=version(),
    options={"egg_info": {"egg_base": os.path.join("build", "python")}},
    ext_modules=[Extension("ptxfront", sources=["python/ptxfront.c"])],
    # one extension module: no package to discover (src/ is the library's C)
    packages=[],
    py_modules=[],
    cmdclass={"build_ext": MakeBuildExt},
)
