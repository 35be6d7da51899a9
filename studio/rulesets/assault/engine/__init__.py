"""The Assault rules engine (in progress): compiled data, the decimal die, the sequence of play and the rule
arithmetic of spotting and direct fire. No ``Game`` is registered yet (see ``../COVERAGE.md``)."""
