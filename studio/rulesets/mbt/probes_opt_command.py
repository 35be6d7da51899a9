"""Conformance probes for the MBT command rules of the Optional Rules and the Advanced Game (issue 13): each probe
lists the optional rules (``Probe.optional_rules``) it exposes; the core plays it with and without each of them."""
from __future__ import annotations


def probes() -> list:
    """This area's probes (``studio.rules.conformance.Probe``)."""
    return []
