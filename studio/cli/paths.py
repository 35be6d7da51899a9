"""Where the bundled sample project is (the default project of every command)."""
from __future__ import annotations

from studio.model.files import default_project

__all__ = ["default_project"]
