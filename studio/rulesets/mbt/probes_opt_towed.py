"""Optional Rules probes of this area (issue 13); see `probes.optional_probes`."""

from __future__ import annotations


def probes() -> list:
    """The probes of this area: each switches one optional rule on and exposes its effect."""
    return []
