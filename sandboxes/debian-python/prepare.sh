#!/bin/sh
# Fills the build context ($1) for benchrig/debian-python:1, the base of the SWE-bench fixture
# images (docs/swebench.md): Debian bookworm minbase with python3, pytest, git and patch, from
# Debian's own packages, never a registry pull — made by the Debian sandbox's prepare.sh with these
# packages included, cached as its own tarball under $BENCHRIG_CACHE.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
ROOT_NAME=debian-bookworm-python INCLUDE=python3,python3-pytest,git,patch DOCKERFILE_DIR="$here" \
  exec sh "$here/../debian/prepare.sh" "$@"
