"""Helpers shared by the sim tests (imported by name: conftest puts this folder on sys.path)."""


def strip(report_json: dict) -> dict:
    """A report's JSON without the timing fields and what ran it."""
    from studio.sim.report import BalanceReport

    return {k: v for k, v in report_json.items() if k not in BalanceReport.TIMING_KEYS}
