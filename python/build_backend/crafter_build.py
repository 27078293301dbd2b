"""A PEP 517 build backend for crafter_toolkit that needs nothing but
Python's standard library, so `pip install ./python` works without a
network: the wheel holds the package's modules and its metadata."""

import base64
import hashlib
import os
import zipfile

NAME, VERSION = "crafter_toolkit", "0.1.0"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METADATA = f"""Metadata-Version: 2.1
Name: crafter-toolkit
Version: {VERSION}
Summary: The Crafter benchmark, exact and fast, through crafter-step: crafter.Env, Gymnasium and vector envs
License: MIT
Requires-Python: >=3.8
Requires-Dist: numpy
Provides-Extra: gymnasium
Requires-Dist: gymnasium>=1.0; extra == "gymnasium"
"""
WHEEL = """Wheel-Version: 1.0
Generator: crafter_build
Root-Is-Purelib: true
Tag: py3-none-any
"""


def _files():
    package = os.path.join(HERE, NAME)
    for name in sorted(os.listdir(package)):
        if name.endswith(".py") and name != "_source_tree.py":
            yield f"{NAME}/{name}", os.path.join(package, name)


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    dist_info = f"{NAME}-{VERSION}.dist-info"
    wheel_name = f"{NAME}-{VERSION}-py3-none-any.whl"
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w",
                         zipfile.ZIP_DEFLATED) as wheel:
        def add(path, data):
            wheel.writestr(path, data)
            records.append(_record_line(path, data))
        for path, source in _files():
            with open(source, "rb") as stream:
                add(path, stream.read())
        # Where the package was built from: installed elsewhere, it still
        # finds that tree's bin/crafter-step.
        tree = os.path.dirname(HERE)
        add(f"{NAME}/_source_tree.py", f"SOURCE_TREE = {tree!r}\n".encode())
        add(f"{dist_info}/METADATA", METADATA.encode())
        add(f"{dist_info}/WHEEL", WHEEL.encode())
        add(f"{dist_info}/top_level.txt", f"{NAME}\n".encode())
        records.append(f"{dist_info}/RECORD,,")
        wheel.writestr(f"{dist_info}/RECORD", "\n".join(records) + "\n")
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    import tarfile
    base = f"{NAME}-{VERSION}"
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as archive:
        for relative in ["pyproject.toml", "build_backend/crafter_build.py"] + \
                [path for path, _ in _files()]:
            archive.add(os.path.join(HERE, relative), arcname=f"{base}/{relative}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = METADATA.encode()
        info.size = len(data)
        import io
        archive.addfile(info, io.BytesIO(data))
    return name
