"""``studio rules [RULESET]``: the rulesets of a project, or one ruleset's options and optional rules.

Without RULESET: one line per ruleset (id, name, how many options and optional rules). With RULESET: its rule
options (id, rule, choices, default) and its optional rules (rule number, id, title, the rules each requires, its
tables), the ids ``studio play --optional-rule ID`` and a scenario's ``optional_rules`` take. ``--probes`` adds,
per optional rule, whether a conformance probe shows it changing play (``studio.rules.conformance.
optional_rules_report``: played with the rule on and off). ``--format json`` prints the same as JSON. Exit 0; 1
with ``--probes`` when a probe cannot be played; 2 when the project or the ruleset is not found.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rules", help="list a ruleset's options and optional rules",
                       description="List the project's rulesets, or one ruleset's rule options and optional rules "
                                   "(the ids scenarios and 'studio play --optional-rule' take).")
    p.add_argument("ruleset", metavar="RULESET", nargs="?", help="ruleset id (default: list the rulesets)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--probes", action="store_true",
                   help="also play the rules engine's conformance probes: which optional rules a probe exposes")
    p.add_argument("--project", dest="rules_project", metavar="DIR", help="project folder (default: sample project)")
    p.set_defaults(func=run)


def _rulesets(root: Path) -> dict:
    """``{id: Ruleset model}`` of the rulesets under ``root`` that load (others are left to ``studio validate``)."""
    from studio.model.project import load_document, project_files, read_document

    out = {}
    for file in project_files(root):
        if read_document(file).kind != "ruleset":
            continue
        doc = load_document(file)
        if doc.model is not None:
            out.setdefault(doc.model.id, doc.model)
    return out


def _describe(ruleset) -> dict:
    return {
        "id": ruleset.id, "name": ruleset.name, "version": ruleset.version,
        "options": [{"id": o.id, "rule": o.rule, "title": o.title, "choices": list(o.choices), "default": o.default}
                    for o in ruleset.options],
        "optional_rules": [{"id": o.id, "rule": o.rule, "title": o.title, "requires": list(o.requires),
                            "tables": list(o.tables)} for o in ruleset.optional_rules],
    }


def _probe_verdicts(ruleset_id: str, root: Path) -> dict[str, str]:
    """``{optional rule id: "" (a probe shows it) | why not}`` (raises ConformanceError, NotDeclared)."""
    from studio.model.registry import load_plugins, plugin
    from studio.rules.conformance import optional_rules_report

    load_plugins()
    return optional_rules_report(plugin(ruleset_id), root)


def _text(info: dict) -> str:
    lines = [f"{info['id']}: {info['name']} (version {info['version']})", f"options ({len(info['options'])}):"]
    lines += [f"  {o['id']} [{o['rule']}] {o['title']}: {' | '.join(map(str, o['choices']))} "
              f"(default {o['default']})" for o in info["options"]]
    lines.append(f"optional rules ({len(info['optional_rules'])}):")
    for o in info["optional_rules"]:
        extra = (f"; requires {', '.join(o['requires'])}" if o["requires"] else "") + \
                (f"; tables {', '.join(o['tables'])}" if o["tables"] else "")
        if "probe" in o:
            extra += "; probe: " + (o["probe"] or "changes play")
        lines.append(f"  {o['rule']:<8} {o['id']}: {o['title']}{extra}")
    if any("probe" in o for o in info["optional_rules"]):
        shown = sum(1 for o in info["optional_rules"] if o.get("probe") == "")
        lines.append(f"probes show {shown} of {len(info['optional_rules'])} optional rules changing play")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from studio.model.project import default_project

    root = Path(args.rules_project or getattr(args, "project", None) or default_project())
    if not root.is_dir():
        print(f"studio rules: no such project folder: {root}", file=sys.stderr)
        return 2
    rulesets = _rulesets(root)
    if args.ruleset is None:
        listing = [{"id": r.id, "name": r.name, "options": len(r.options), "optional_rules": len(r.optional_rules)}
                   for r in sorted(rulesets.values(), key=lambda r: r.id)]
        if args.format == "json":
            print(json.dumps(listing, indent=2))
        else:
            for r in listing:
                print(f"{r['id']}: {r['name']} ({r['options']} options, {r['optional_rules']} optional rules)")
        return 0
    ruleset = rulesets.get(args.ruleset)
    if ruleset is None:
        print(f"studio rules: no ruleset '{args.ruleset}' that loads in {root} "
              f"(known: {', '.join(sorted(rulesets)) or 'none'})", file=sys.stderr)
        return 2
    info = _describe(ruleset)
    if args.probes:
        try:
            verdicts = _probe_verdicts(ruleset.id, root)
        except Exception as exc:  # noqa: BLE001 - NotDeclared, ConformanceError: reported, never a traceback
            print(f"studio rules: the probes of '{ruleset.id}' cannot be played: {exc}", file=sys.stderr)
            return 1
        for o in info["optional_rules"]:
            o["probe"] = verdicts.get(o["id"], "not checked")
    print(json.dumps(info, indent=2) if args.format == "json" else _text(info))
    return 0
