"""World at War rules engine: Game (static facts), State (sequence of play), actions and LOS."""
