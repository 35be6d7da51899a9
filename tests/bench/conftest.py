"""Benchmarks import ``anchor`` (the python-chess speed anchor) from this folder."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
