"""AdvState is MbtState plus one mixin per chapter and optional-rule group, written by several people at once: a
helper named the same in two mixins silently shadows the other one (the one later in the MRO is never called).
This test lists every method name defined by two or more classes of AdvState's MRO whose signatures differ, which
is never an intended override (an override keeps its base's parameters and calls ``super()``)."""
from __future__ import annotations

import inspect

from studio.rulesets.mbt.engine.advanced import AdvState


def _params(func) -> tuple[int, bool]:
    """(positional parameter count, takes *args/**kwargs)."""
    sig = inspect.signature(func)
    positional = [p for p in sig.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    varargs = any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in sig.parameters.values())
    return len(positional), varargs


def shadowed(cls) -> list[str]:
    """``name: A.name(sig) shadows B.name(sig)`` for same-named methods with different parameter counts."""
    out = []
    mro = [k for k in cls.__mro__ if k is not object]
    names = {n for k in mro for n, v in vars(k).items() if inspect.isfunction(v) and not n.startswith("__")}
    for name in sorted(names):
        owners = [k for k in mro if inspect.isfunction(vars(k).get(name))]
        first = owners[0]
        a = _params(vars(first)[name])
        for other in owners[1:]:
            b = _params(vars(other)[name])
            if a != b and not (a[1] or b[1]):
                out.append(f"{name}: {first.__name__}.{name}{inspect.signature(vars(first)[name])} shadows "
                           f"{other.__name__}.{name}{inspect.signature(vars(other)[name])}")
    return out


def test_no_mixin_method_shadows_another_with_a_different_signature():
    assert shadowed(AdvState) == []


def test_the_check_finds_a_shadowed_helper():
    class A:
        def _adjust(self):
            return 1

    class B:
        def _adjust(self, mission, hex_):
            return 2

    class C(A, B):
        pass

    assert [s.split(":")[0] for s in shadowed(C)] == ["_adjust"]
