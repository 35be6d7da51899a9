#!/bin/sh
# Regenerate the window screenshots of docs/GUI.md at 1366x768 with the studio's own screenshot mode
# (offscreen, on the sample project). Run from the repository root: sh docs/screenshots/regenerate.sh
set -e
export STUDIO_WINDOW_SIZE=1366x768
shot() { studio --project data --screenshot "docs/screenshots/$1.png" ${2:+--open "$2"}; }
shot main-window
shot map-editor board-2
shot card-editor su-t64
shot card-editor-weapons 'm1#/body/weapons/0/ammo/1/penetration/P'
shot waw-card su-t72
shot toe-editor us-cav-troop
shot scenario-editor delaying-action
shot scenario-rule-system 'mbt-adv-combined-arms#/extension/force_grades'
shot problems-jump 'delaying-action#/sides/0/forces/0/setup/hexes/0'
shot ruleset-text mbt
shot unit-table units:waw
shot replay-viewer replay:mbt-adv-combined-arms
shot replay-narration replay:bfops-meeting-at-the-ford
shot testplay testplay:hasty-defense
# Story 5 (measured table): the table editor screenshots of docs/bfops/STORY5.md
python docs/bfops/story5_screenshots.py
