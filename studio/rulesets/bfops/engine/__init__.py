"""Battlefield Ops! rules engine on continuous space (positions in inches, facings in degrees)."""
