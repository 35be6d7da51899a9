"""MBT Basic Game rules engine (MBT 3.0-4.6): compiled data, LOS, the Game/State, and bots.

- ``data``: scenario + ruleset + cards compiled into plain slots objects (tables are read by id from
  ``ruleset.yaml``; no table value is written in the code).
- ``los``: MBT line of sight on ``studio.hexgrid.los`` obstacle enumeration (MBT 4.1.4.x).
- ``game``: ``create_game(scenario, index, options=None) -> MbtGame`` and ``MbtState``.
- ``bots``: the heuristic bot.
"""
