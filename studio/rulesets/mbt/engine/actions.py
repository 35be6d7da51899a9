"""MBT actions: tuples of strings with a text form (``MbtGame.parse_action`` inverts ``str``)::

    command M1-1 FIRE|MOVE|SH|OW|NC     initiative first|second
    fire M1-1 at T-80B-2 main:APFSDS    hold M1-1 (no target left)     reveal T-80B-2 | conceal T-80B-2
    ow M1-1 at T-80B-2 main:APFSDS      pass
    move M1-1 (select the next vehicle to move)  road M1-1 (road/path rate)  fwd M1-1  rev M1-1
    turn M1-1 left|right  enter M1-1 2A8  exit M1-1  done M1-1
    dismount M113A2-1 US-1 (Advanced: the moving carrier unloads a passenger)  mount US-1 M113A2-1
    assault US-1 T-80BV-2 (Advanced: close assault or hand-to-hand combat)  assault US-1 T-80BV-2 advance 2C3
    crawl US-1 2C3 (Advanced: a Full Cover leg unit crawls one hex)
    climb US-1 up|down (Advanced: a leg unit moving in a multi-story building, MBT 6.6.4.1)
    pivot US-1 NE (Advanced Adjustment: a dismounted leg or towed unit faces another hexside, MBT 6.8.1)
    fly AH-1S-1 2C9 [low|land] (Advanced, Air Phase: a helicopter flies, then fire ... or hold; popup AH-1S-1;
    face AH-1S-1 NE (another facing its flight reaches); rappel Mi-24-1 SOV-1 (a leg passenger rappels at NOE))
    sortie A-10A-1 slow low  arrive A-10A-1 2A5 SE  wing A-10A-1 ahead|left|right  attack A-10A-1 strafe T-80BV-1
    call M106A2-1 by M981-1 at 2I8 (Advanced: indirect fire called by an observer on a target hex)
    call m109-battery-1 by M981-1 at 2I8 smoke open (mission type and SHEAF)  continue M981-1  check M981-1
    adjust M981-1 at 2I9  planned m109-battery-1@6  discharge T-80BV-1  smoke M125-1 at 2I8  smoke US-1
"""
from __future__ import annotations

class Action(tuple):
    """An action: a tuple of strings whose ``str`` is its text form."""

    __slots__ = ()

    def __str__(self) -> str:
        k = self[0]
        if k in ("fire", "ow"):
            return f"{k} {self[1]} at {self[2]} {self[3]}"
        if k == "call":
            return " ".join((f"call {self[1]} by {self[2]} at {self[3]}",) + tuple(self[4:]))
        return " ".join(self)

    def __repr__(self) -> str:
        return f"<{self}>"


PASS = Action(("pass",))
VERBS = ("command", "initiative", "hold", "reveal", "conceal", "pass", "move", "road", "fwd", "rev", "turn", "enter",
         "exit", "done", "dismount", "mount", "assault", "fly", "quickmarch", "overrun", "search", "bailout", "clear", "cover", "push", "launch", "recover", "inb",
         "crawl",  # MBT 6.6.4.3
         "pivot",  # MBT 6.8.1
         "climb",  # MBT 6.6.4.1: a leg unit moves up or down in a building
         "sortie", "arrive", "wing", "attack", "popup", "face", "rappel",
         "continue", "adjust", "check", "planned", "discharge", "smoke",  # indirect fire, smoke (ARTY)
         "formation", "hide", "fake",  # staggered initiative (7.5), hidden units (7.2.2.2, 7.2.3)
         "light")  # searchlights in the Visualization step (7.36.4.1)


def _parse(text: str) -> Action:
    t = text.split()
    if not t:
        raise ValueError("empty action")
    if t[0] in ("fire", "ow"):
        if len(t) != 5 or t[2] != "at":
            raise ValueError(f"cannot read '{text}': expected '{t[0]} UNIT at TARGET WEAPON:AMMO'")
        return Action((t[0], t[1], t[3], t[4]))
    if t[0] == "call":
        if len(t) not in (6, 7, 8) or t[2] != "by" or t[4] != "at":
            raise ValueError(f"cannot read '{text}': expected 'call FIRER by OBSERVER at HEX [MISSION SHEAF | "
                             "recon]'")
        return Action(("call", t[1], t[3], t[5]) + tuple(t[6:]))
    if t[0] not in VERBS:
        raise ValueError(f"unknown action '{text}'")
    return Action(tuple(t))
