"""Both sides of the MBT Advanced Game checks (checks_advanced.py, checks_forces.py): variants of sample cards
and scenarios that must pass clean next to the ones that must be refused, each validated in the sample project
(loaded once) and reported for the variant only."""
import shutil
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "data"


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("mbt-cases") / "data"
    shutil.copytree(DATA, root)
    return root


@pytest.fixture(scope="module")
def docs(project):
    from studio.model.project import display_path, load_documents, project_files

    files = project_files(project)
    return load_documents(files, [display_path(f) for f in files])


MESSAGES: list[str] = []


def findings(project, docs, *texts):
    """``(code, severity, line)`` of the first of ``texts`` (YAML documents), validated with the sample project
    and the other texts."""
    from studio.model.project import ProjectIndex, display_path, load_documents
    from studio.model.validate import _key, validate_index

    folder = project / "zz-cases"
    folder.mkdir(exist_ok=True)
    paths = []
    for i, text in enumerate(texts):
        path = folder / f"case-{i}.yaml"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    try:
        index = ProjectIndex(project)
        for doc in docs:
            index.add(doc)
        for doc in load_documents(paths, [display_path(p) for p in paths]):
            index.add(doc)
        result = validate_index(index, {_key(paths[0])})
        MESSAGES.extend(d.message for d in result.diagnostics)
        return {(d.code, d.severity.value, d.line) for d in result.diagnostics}
    finally:
        for path in paths:
            path.unlink()


def codes(found, severity=None):
    return {c for c, s, _l in found if severity is None or s == severity}


def variant(card_id, edit, new_id="case-card"):
    """A sample card (YAML text) with ``edit(data)`` applied and a new id."""
    data = yaml.safe_load((DATA / "units" / "mbt" / f"{card_id}.yaml").read_text(encoding="utf-8"))
    data["id"] = new_id
    data.pop("placeholder_fields", None)
    data["placeholder"] = True
    edit(data)
    return yaml.safe_dump(data, sort_keys=False)


def test_a_gp_only_weapon_needs_no_ap_damage_and_an_ap_row_with_damage_is_clean(project, docs):
    """V17: only AP/ATGM rows need AP Damage (MBT 6.5.2.6)."""
    assert "mbt.ap-damage" not in codes(findings(project, docs, variant("us-mech-squad", lambda d: None)))
    assert "mbt.ap-damage" not in codes(findings(project, docs, variant("law", lambda d: None)))

    def strip(d):
        del d["body"]["weapon"]["ammo"][0]["ap_damage"]
    assert "mbt.ap-damage" in codes(findings(project, docs, variant("law", strip)), "warning")


@pytest.mark.parametrize("guidance,aspect,refused", [("SACLOS", "MT", True), ("radar", "MT", True),
                                                     ("IR", "MT", False), ("SACLOS", "MA", False)])
def test_radar_and_saclos_sams_are_all_aspect(project, docs, guidance, aspect, refused):
    """V23, Advanced V9 (MBT 6.7.8.1.1)."""
    def edit(d):
        d["body"]["weapon_type"] = "manpads"
        w = d["body"]["weapon"]
        w["weapon_type"] = "manpads"
        w["aa"] = {"sam": {"aspect": aspect, "guidance": guidance, "cm_rating": 5}}
        w["ammo"] = [{"ammo_type": "Stinger", "kind": "GP", "range": {"P": 2, "S": 4, "M": 6, "L": 8, "E": 10},
                      "gp_factor": {"P": 8, "S": 8, "M": 8, "L": 8, "E": 8}}]
    found = codes(findings(project, docs, variant("law", edit)), "error")
    assert ("mbt.manpads" in found) == refused, found


def test_a_laser_guided_atgm_with_a_laser_sight_is_clean(project, docs):
    """V26: an L (or D) sight guides a laser ATGM (MBT 5.1.3.3)."""
    def laser(sight):
        def edit(d):
            d["body"]["weapon"]["sight"] = sight
            d["body"]["weapon"]["ammo"][0]["atgm"]["laser_guided"] = True
        return edit
    assert "mbt.laser" not in codes(findings(project, docs, variant("dragon", laser({"primary": "L"}))))
    assert "mbt.laser" not in codes(findings(project, docs, variant("dragon", laser({"primary": "D"}))))
    assert "mbt.laser" in codes(findings(project, docs, variant("dragon", laser({"primary": "O"}))))


def test_leg_cross_country_zero_and_falling_gp_defense(project, docs):
    """V5: a leg unit moves at least 1 (MBT 6.6.4.1); GP Defense does not fall with better cover (6.5.4.2.2)."""
    def zero(d):
        d["body"]["movement"]["cross_country"] = 0
    def falling(d):
        d["body"]["gp_defense"]["heavy"] = 3
    assert "mbt.leg-movement" in codes(findings(project, docs, variant("sov-mr-squad", zero)), "error")
    found = findings(project, docs, variant("sov-mr-squad", falling))
    assert "mbt.leg-movement" in codes(found, "warning") and "mbt.leg-movement" not in codes(found, "error")
    assert "mbt.leg-movement" not in codes(findings(project, docs, variant("sov-mr-squad", lambda d: None)))


def test_an_attack_load_needs_a_gp_factor_a_drop_tank_does_not(project, docs):
    """Advanced V11 (MBT 6.7.3)."""
    def no_gp(d):
        del d["body"]["loads"][0]["gp_factor"]
    assert "mbt.aircraft" in codes(findings(project, docs, variant("a-10", no_gp)), "error")
    assert "mbt.aircraft" not in codes(findings(project, docs, variant("a-10", lambda d: None)))


# ------------------------------------------------------------------ scenarios

SCENARIO = yaml.safe_load((DATA / "scenarios" / "mbt" / "adv-combined-arms.yaml").read_text(encoding="utf-8"))


def scenario(edit):
    data = yaml.safe_load(yaml.safe_dump(SCENARIO))
    data["id"] = "case-scenario"
    edit(data)
    return yaml.safe_dump(data, sort_keys=False)


def force(data, side, fid):
    return next(f for s in data["sides"] if s["id"] == side for f in s["forces"] if f["id"] == fid)


def test_mounted_force_sharing_one_hex_with_its_carriers_is_clean(project, docs):
    """V51: passengers set up in their carrier's hex (one shared hex for both is fine, MBT 6.6.7)."""
    def shared(d):
        mech = force(d, "us", "mech")
        mech["setup"]["hexes"] = ["2I8"]
        d["extension"]["mounted"] = [{"force": "mech"}]
    assert "mbt.passengers" not in codes(findings(project, docs, scenario(shared)))

    def apart(d):
        d["extension"]["mounted"] = [{"force": "mech"}]
    assert "mbt.passengers" in codes(findings(project, docs, scenario(apart)), "error")


def test_attachment_overrides(project, docs):
    """V49: overrides name a leg slot of the force and crew-served cards (MBT 5.1.3)."""
    def good(d):
        d["extension"]["attachments"] = [{"force": "mech", "slot": "plt/sqd", "weapons": ["at4"]}]
    def bad_slot(d):
        d["extension"]["attachments"] = [{"force": "mech", "slot": "plt/apc", "weapons": ["at4"]}]
    def bad_weapon(d):
        d["extension"]["attachments"] = [{"force": "mech", "slot": "sqd", "weapons": ["m1"]}]
    def bad_force(d):
        d["extension"]["attachments"] = [{"force": "nobody", "slot": "sqd", "weapons": ["at4"]}]
    def good_short(d):
        d["extension"]["attachments"] = [{"force": "mech", "slot": "sqd", "weapons": ["at4", "dragon"]}]
    assert "mbt.crew-served" not in codes(findings(project, docs, scenario(good)))
    assert "mbt.crew-served" not in codes(findings(project, docs, scenario(good_short)))   # path without the root
    for edit in (bad_slot, bad_weapon, bad_force):
        assert "mbt.crew-served" in codes(findings(project, docs, scenario(edit)), "error"), edit.__name__


@pytest.mark.parametrize("echelon,refused", [("", False), ("fist", False), ("fist/x", True)])
def test_attached_battery_echelons(project, docs, echelon, refused):
    """V56: an attached battery names an echelon of its force's TO&E (MBT 6.5.1.3.1)."""
    def edit(d):
        d["extension"]["artillery"][0]["echelon"] = echelon
    assert ("mbt.attachment" in codes(findings(project, docs, scenario(edit)), "error")) == refused


def test_pre_registered_points_name_batteries_of_the_side(project, docs):
    """V55 (MBT 6.5.1.4)."""
    def good(d):
        d["extension"]["pre_registered"] = [{"side": "us", "hex": "4L6", "batteries": ["m109-battery"]}]
    def other_side(d):
        d["extension"]["pre_registered"] = [{"side": "us", "hex": "4L6", "batteries": ["2s1-battery"]}]
    def off_board(d):
        d["extension"]["pre_registered"] = [{"side": "us", "hex": "9Z9"}]
    assert "mbt.planned-fire" not in codes(findings(project, docs, scenario(good)))
    assert "mbt.planned-fire" in codes(findings(project, docs, scenario(other_side)), "error")
    assert "mbt.planned-fire" in codes(findings(project, docs, scenario(off_board)), "error")


@pytest.mark.parametrize("second,refused", [(3, True), (4, True), (5, False)])
def test_a_battery_is_idle_the_turn_after_a_plot(project, docs, second, refused):
    """V55 (MBT 6.5.1.11.2): a plot on turns 2-3 leaves turn 4 idle; the next plot may start on turn 5."""
    def edit(d):
        d["extension"]["planned_fire"] = [
            {"side": "us", "battery": "m109-battery", "turn": 2,
             "segments": [{"mission": "GP", "sheaf": "closed", "hex": "4L6", "turns": 2}]},
            {"side": "us", "battery": "m109-battery", "turn": second,
             "segments": [{"mission": "GP", "sheaf": "closed", "hex": "4L6"}]}]
    assert ("mbt.planned-fire" in codes(findings(project, docs, scenario(edit)), "error")) == refused


def test_towed_guns_in_a_building_on_a_shared_hex(project, docs):
    """V54: the warning points at the shared set-up hex (MBT 6.1.4.3.1)."""
    def edit(d):
        sov = next(s for s in d["sides"] if s["id"] == "sov")
        sov["forces"].append({"id": "guns", "toe": "sov-spg9-section", "setup": {"hexes": ["4K5"], "facing": "NW"}})
    text = scenario(edit)
    found = findings(project, docs, text)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "4K5" in l)
    assert ("mbt.towed-building", "warning", line) in found, found


def test_terrain_gpd_needs_a_bridge(project, docs):
    """V58: a hex with only a stream hexside is no variable-defense terrain (MBT 6.5.4.2.5)."""
    def edit(d):
        d["extension"]["terrain_gpd"] = {"2C3": 4}
    assert "mbt.terrain-gpd" in codes(findings(project, docs, scenario(edit)), "warning")


def test_observers_by_crew_fo_and_designators(project, docs):
    """V60: a crew FO is an observer (MBT 7.39); a D sight is a Laser Designator for CLGP (MBT 6.5.1.13.3)."""
    fist = variant("m981", lambda d: d["body"].update(labels=[], laser_designator=False, crew_fo=True),
                   new_id="case-fist")
    dsight = variant("m981", lambda d: (d["body"].update(labels=[], laser_designator=False, crew_fo=False),
                                        d["body"]["weapons"][0]["sight"].update(secondary="D")), new_id="case-fist")
    toe = yaml.safe_dump({"kind": "toe", "schema_version": 1, "id": "case-toe", "ruleset": "mbt", "name": "Case",
                          "nation": "US", "root": {"id": "t", "name": "T", "echelon": "team", "designation": "{n}",
                                                   "slots": [{"id": "v", "unit": "case-fist"}]}})

    def edit(d):
        force(d, "us", "fist")["toe"] = "case-toe"
    MESSAGES.clear()
    findings(project, docs, scenario(edit), fist, toe)
    said = " | ".join(MESSAGES)
    assert "no FO, command or recon unit" not in said and "no unit with a Laser Designator" in said, said
    MESSAGES.clear()
    findings(project, docs, scenario(edit), dsight, toe)
    said = " | ".join(MESSAGES)
    assert "no FO, command or recon unit" in said and "Laser Designator" not in said, said


def test_an_earlier_plot_may_end_the_turn_before_the_idle_turn(project, docs):
    """V55 (MBT 6.5.1.11.2): plots listed out of turn order: one on turns 6-7 and one on turns 3-4 (idle 5) are
    compatible; one on turns 4-5 is not (turn 5 idle would be turn 6)."""
    def plots(second_turn):
        def edit(d):
            d["extension"]["planned_fire"] = [
                {"side": "us", "battery": "m109-battery", "turn": 6,
                 "segments": [{"mission": "GP", "sheaf": "closed", "hex": "4L6", "turns": 2}]},
                {"side": "us", "battery": "m109-battery", "turn": second_turn,
                 "segments": [{"mission": "GP", "sheaf": "closed", "hex": "4L6", "turns": 2}]}]
        return edit
    assert "mbt.planned-fire" not in codes(findings(project, docs, scenario(plots(3))))
    assert "mbt.planned-fire" in codes(findings(project, docs, scenario(plots(4))), "error")
