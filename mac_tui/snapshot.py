"""Is a loaded snapshot a state the engine can use? Checked before any screen sees it.

A save's snapshot is structured into the state's attrs classes with strict types (see
`save.CONVERTER`), which catches a wrong type or a missing field. What the types cannot say is
checked here: every id names something in the catalog (chassis, weapons, equipment, places,
factions, landscapes), every reference inside the state resolves (a frame's pilot, the turn
order's units, a mission's frames), every index is in range (the turn, the salvage picks), and
every number lies in the range the rules give it (armour and structure within the chassis's,
skills within the pilots' table, fuel within the tanks). A state that passes can be stepped and
drawn without a KeyError or an IndexError.

What is *consistent* but not what the command log rebuilds (an edited number within its range)
is not a problem here: the replay check (`session.verify`) says so.

`problems(state)` lists what is wrong, each naming the field by its path in the save file
(`snapshot.battle.turn`); an empty list means the state can be used.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Iterable
from typing import Any

from .campaign.state import Campaign, Contract, Frame, PilotRecord, SalvageItem
from .catalog import LOCATION_ORDER, Catalog, catalog
from .combat.features import full_durability
from .combat.state import FORMATIONS, Battle, Objective, Unit
from .combat.stats import armor_split, full_structure
from .model import GameState
from .ruleset import format_ruleset, ruleset_refusal

MAX_PROBLEMS = 8  # a badly broken file names its first few problems, not hundreds
MAX_TEXT = 200  # labels and names: far more than any the game makes
MAX_COUNT = 1_000_000  # stock, inventory, days (2,700 years): no game comes near


class _Stop(Exception):
    """Enough problems found."""


class _Checker:
    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.found: list[str] = []
        self.locations = set(LOCATION_ORDER)
        self.groups = cat.combat.loadout.weapon_groups
        self.landscapes = {ls.id for ls in cat.maps.landscape}
        self.payout_levels = {p.level for p in cat.economy.payout_level}
        skills = cat.pilots.skills
        self.skill_range = (skills.min, skills.max)
        force = cat.missions.enemy_force
        top = max([skills.max, *(max(f.gunnery, f.piloting, f.tactics) for f in force)])
        self.battle_skills = (min(skills.min, 0), top)
        self.difficulty = (cat.missions.difficulty.min, cat.missions.difficulty.max)
        self.map_max = (
            max(m.width for m in cat.maps.map_size),
            max(m.height for m in cat.maps.map_size),
        )

    # ---- primitives ---------------------------------------------------------------------
    def fail(self, path: str, text: str) -> None:
        self.found.append(f'field "{path}" {text}')
        if len(self.found) >= MAX_PROBLEMS:
            raise _Stop

    def known(self, path: str, value: object, ids: Collection[object], what: str) -> bool:
        if value not in ids:
            self.fail(path, f"names an unknown {what} {value!r}")
            return False
        return True

    def within(self, path: str, value: int, lo: int | None, hi: int | None) -> None:
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            if lo is not None and hi is not None:
                self.fail(path, f"is {value}, outside {lo}..{hi}")
            elif lo is not None:
                self.fail(path, f"is {value}, below {lo}")
            else:
                self.fail(path, f"is {value}, above {hi}")

    def text(self, path: str, value: str, *, empty: bool = False) -> None:
        if (not value and not empty) or len(value) > MAX_TEXT:
            self.fail(path, f"must have 1 to {MAX_TEXT} characters")

    def unique(self, path: str, values: Iterable[str], what: str) -> set[str]:
        seen: set[str] = set()
        for v in values:
            if v in seen:
                self.fail(path, f"lists the {what} {v!r} twice")
            seen.add(v)
        return seen

    def location_values(
        self, path: str, values: tuple[int, ...], top: tuple[int, ...] | None
    ) -> None:
        if len(values) != len(LOCATION_ORDER):
            self.fail(path, f"has {len(values)} values, one per location ({len(LOCATION_ORDER)})")
            return
        for i, v in enumerate(values):
            self.within(f"{path}[{i}]", v, 0, None if top is None else top[i])

    def item(self, path: str, kind: str, item: str) -> None:
        ids = {
            "weapon": self.cat.weapons,
            "equipment": self.cat.equipment,
            "chassis": self.cat.chassis,
        }[kind]
        self.known(f"{path}.item", item, ids, kind)

    def inventory(
        self, path: str, items: tuple[tuple[str, int], ...], ids: Collection[str]
    ) -> None:
        self.unique(path, (i for i, _ in items), "item")
        for n, (item, qty) in enumerate(items):
            self.known(f"{path}[{n}][0]", item, ids, "item")
            self.within(f"{path}[{n}][1]", qty, 1, MAX_COUNT)

    # ---- the campaign -------------------------------------------------------------------
    def mounts(self, path: str, weapons: Iterable[Any], equipment: Iterable[Any]) -> None:
        for i, w in enumerate(weapons):
            p = f"{path}.weapons[{i}]"
            self.known(f"{p}.weapon", w.weapon, self.cat.weapons, "weapon")
            self.known(f"{p}.mount", w.mount, self.locations, "location")
            self.within(f"{p}.group", w.group, 1, self.groups)
            if hasattr(w, "ammo"):
                self.within(f"{p}.ammo", w.ammo, 0, MAX_COUNT)
        for i, e in enumerate(equipment):
            p = f"{path}.equipment[{i}]"
            self.known(f"{p}.equipment", e.equipment, self.cat.equipment, "equipment")
            if e.mount is not None:
                self.known(f"{p}.mount", e.mount, self.locations, "location")

    def frame(self, path: str, f: Frame, pilots: Collection[str] | None) -> None:
        self.text(f"{path}.id", f.id)
        self.text(f"{path}.name", f.name)
        if not self.known(f"{path}.chassis", f.chassis, self.cat.chassis, "chassis"):
            return
        ch = self.cat.chassis[f.chassis]
        self.mounts(path, f.weapons, f.equipment)
        self.location_values(f"{path}.armor", f.armor, armor_split(ch))
        self.location_values(f"{path}.structure", f.structure, full_structure(ch))
        self.within(f"{path}.components", f.components, 0, MAX_COUNT)
        self.within(f"{path}.busy_days", f.busy_days, 0, MAX_COUNT)
        if f.pilot is not None and pilots is not None:
            self.known(f"{path}.pilot", f.pilot, pilots, "pilot")

    def contract(self, path: str, k: Contract) -> None:
        self.text(f"{path}.id", k.id)
        self.known(f"{path}.employer", k.employer, self.cat.factions, "faction")
        self.known(f"{path}.opponent", k.opponent, self.cat.factions, "faction")
        self.within(f"{path}.difficulty", k.difficulty, *self.difficulty)
        self.within(f"{path}.base", k.base, 0, None)
        self.within(f"{path}.bonus", k.bonus, 0, None)
        self.known(f"{path}.landscape", k.landscape, self.landscapes, "landscape")
        self.known(f"{path}.place", k.place, self.cat.places, "place")
        frames = [(f"{path}.enemies[{i}]", e) for i, e in enumerate(k.enemies)]
        third = k.third_party
        if third is not None:  # O10.1
            at = f"{path}.third_party"
            self.within(f"{at}.roll", third.roll, 1, 100)
            if third.faction is not None:
                self.known(f"{at}.faction", third.faction, self.cat.factions, "faction")
            frames += [(f"{at}.frames[{i}]", e) for i, e in enumerate(third.frames)]
        for p, e in frames:
            if self.known(f"{p}.chassis", e.chassis, self.cat.chassis, "chassis"):
                names = {lo.name for lo in self.cat.loadouts.get(e.chassis, ())}
                self.known(f"{p}.loadout", e.loadout, names, "loadout")
            self.text(f"{p}.label", e.label)
        self.objectives(f"{path}.objectives", k.objectives, None)

    def objectives(self, path: str, objectives: tuple[Objective, ...], b: Battle | None) -> None:
        """O11: known catalogue ids, each once, at most one hidden; in a battle its hex on the
        map and the round met not past the battle's."""
        ids = [k.id for k in self.cat.objectives.objective]
        self.unique(path, (o.id for o in objectives), "objective")
        if sum(o.hidden for o in objectives) > 1:
            self.fail(path, "holds more than one hidden objective")
        for i, o in enumerate(objectives):
            at = f"{path}[{i}]"
            self.known(f"{at}.id", o.id, ids, "objective")
            if b is None:
                if o.hex is not None or o.met:
                    self.fail(at, "a contract's objective has no hex and is not met")
                continue
            if o.hex is not None and not b.map.contains(o.hex):
                self.fail(f"{at}.hex", f"{list(o.hex)} is off the map")
            self.within(f"{at}.met", o.met, 0, b.round)

    def salvage(self, path: str, items: tuple[SalvageItem, ...]) -> None:
        for i, s in enumerate(items):
            self.item(f"{path}[{i}]", s.kind, s.item)

    def campaign(self, c: Campaign, battle: Battle | None) -> None:
        cat = self.cat
        p = "snapshot.campaign"
        self.text(f"{p}.company", c.company)
        self.within(f"{p}.day", c.day, 1, MAX_COUNT)  # the finances walk every day
        self.within(f"{p}.contracts_day", c.contracts_day, 1, c.day)
        self.known(f"{p}.place", c.place, cat.places, "place")
        self.within(f"{p}.fuel", c.fuel, 0, cat.galaxy.travel.fuel_capacity)
        callsigns = self.unique(f"{p}.pilots", (x.callsign for x in c.pilots), "pilot")
        for i, pilot in enumerate(c.pilots):
            q = f"{p}.pilots[{i}]"
            self.text(f"{q}.callsign", pilot.callsign)
            for skill in ("gunnery", "piloting", "tactics"):
                self.within(f"{q}.{skill}", getattr(pilot, skill), *self.skill_range)
            self.within(f"{q}.morale", pilot.morale, 0, 100)
            self.within(f"{q}.injury_days", pilot.injury_days, 0, MAX_COUNT)
            self.within(f"{q}.xp", pilot.xp, 0, None)
            self.record(f"{q}.record", pilot.record, c.day)
        frame_ids = self.unique(f"{p}.frames", (f.id for f in c.frames), "frame")
        seated: set[str] = set()
        for i, f in enumerate(c.frames):
            self.frame(f"{p}.frames[{i}]", f, callsigns)
            if f.pilot is not None:
                if f.pilot in seated:
                    self.fail(f"{p}.frames[{i}].pilot", f"seats {f.pilot!r} in a second frame")
                seated.add(f.pilot)
        self.inventory(f"{p}.weapons", c.weapons, cat.weapons)
        self.inventory(f"{p}.equipment", c.equipment, cat.equipment)
        self.unique(f"{p}.standing", (f for f, _ in c.standing), "faction")
        for i, (faction, value) in enumerate(c.standing):
            self.known(f"{p}.standing[{i}][0]", faction, cat.factions, "faction")
            self.within(
                f"{p}.standing[{i}][1]", value, cat.economy.standing.min, cat.economy.standing.max
            )
        self.unique(f"{p}.contracts", (k.id for k in c.contracts), "contract")
        for i, k in enumerate(c.contracts):
            self.contract(f"{p}.contracts[{i}]", k)
        self.unique(f"{p}.markets", (m.place for m in c.markets), "market place")
        for i, m in enumerate(c.markets):
            q = f"{p}.markets[{i}]"
            self.known(f"{q}.place", m.place, cat.places, "place")
            self.within(f"{q}.rolled_day", m.rolled_day, 1, c.day)
            for j, s in enumerate(m.stock):
                self.item(f"{q}.stock[{j}]", s.kind, s.item)
                self.within(f"{q}.stock[{j}].qty", s.qty, 0, MAX_COUNT)
        for i, e in enumerate(c.ledger):
            self.within(f"{p}.ledger[{i}].day", e.day, 1, c.day)
        if c.mission is not None:
            q = f"{p}.mission"
            self.contract(f"{q}.contract", c.mission.contract)
            self.known(f"{q}.payout_level", c.mission.payout_level, self.payout_levels, "level")
            units = {u.id for u in battle.units} if battle is not None else None
            for i, (unit, frame) in enumerate(c.mission.frames):
                self.known(f"{q}.frames[{i}][1]", frame, frame_ids, "frame")
                if units is not None:
                    self.known(f"{q}.frames[{i}][0]", unit, units, "unit")
        if c.after_action is not None:
            a = c.after_action
            q = f"{p}.after_action"
            self.contract(f"{q}.contract", a.contract)
            self.known(f"{q}.result", a.result, ("victory", "defeat", "withdrawal"), "result")
            self.known(f"{q}.payout_level", a.payout_level, self.payout_levels, "level")
            self.within(f"{q}.picks", a.picks, 0, len(a.pool))
            self.salvage(f"{q}.pool", a.pool)
            self.salvage(f"{q}.found", a.found)
            if len(set(a.picked)) != len(a.picked):
                self.fail(f"{q}.picked", "picks one item twice")
            for i, n in enumerate(a.picked):
                self.within(f"{q}.picked[{i}]", n, 0, len(a.pool) - 1)
            for i, f in enumerate(a.frame_offers):
                self.frame(f"{q}.frame_offers[{i}]", f, None)
                if f.pilot is not None:
                    self.fail(f"{q}.frame_offers[{i}].pilot", "seats a pilot in a salvaged frame")
            for i, line in enumerate(a.report):
                if len(line) > 10 * MAX_TEXT:
                    self.fail(f"{q}.report[{i}]", "is too long")
        self.within(f"{p}.next_frame", c.next_frame, 1, None)
        self.within(f"{p}.next_contract", c.next_contract, 1, None)
        self.within(f"{p}.mercs_hired", c.mercs_hired, 0, None)
        self.within(f"{p}.missions_played", c.missions_played, 0, None)
        self.within(f"{p}.missions_won", c.missions_won, 0, c.missions_played)
        self.within(f"{p}.negative_days", c.negative_days, 0, None)

    # ---- the battle ---------------------------------------------------------------------
    def record(self, path: str, r: PilotRecord, day: int) -> None:
        """A service record (ruling P2): counts not negative, victories within the missions,
        joined on a day of the campaign so far (or unknown)."""
        if r.hired_day is not None:
            self.within(f"{path}.hired_day", r.hired_day, 1, day)
        for name in ("missions", "kills", "injuries", "ejections"):
            self.within(f"{path}.{name}", getattr(r, name), 0, None)
        self.within(f"{path}.victories", r.victories, 0, r.missions)
        for i, name in enumerate(r.frames):
            self.text(f"{path}.frames[{i}]", name)

    def unit(self, path: str, u: Unit, b: Battle) -> None:
        self.text(f"{path}.id", u.id)
        self.text(f"{path}.label", u.label)
        self.text(f"{path}.pilot.callsign", u.pilot.callsign)
        for skill in ("gunnery", "piloting", "tactics"):
            self.within(f"{path}.pilot.{skill}", getattr(u.pilot, skill), *self.battle_skills)
        if not self.known(f"{path}.chassis", u.chassis, self.cat.chassis, "chassis"):
            return
        ch = self.cat.chassis[u.chassis]
        self.mounts(path, u.weapons, u.equipment)
        self.location_values(f"{path}.armor", u.armor, armor_split(ch))
        self.location_values(f"{path}.structure", u.structure, full_structure(ch))
        self.location_values(f"{path}.actuator_hits", u.actuator_hits, None)
        if u.pos is not None and not b.map.contains(u.pos):
            self.fail(f"{path}.pos", f"{list(u.pos)} is off the {b.map.width}x{b.map.height} map")
        if b.phase == "combat" and u.active and u.pos is None:
            self.fail(f"{path}.pos", "is missing for a frame in the fight")
        for name in ("start_armor", "start_structure", "ap", "energy_used", "barrier"):
            self.within(f"{path}.{name}", getattr(u, name), 0, MAX_COUNT)
        for name in ("stress", "reactor_hits"):
            self.within(f"{path}.{name}", getattr(u, name), 0, MAX_COUNT)
        for i, g in enumerate(u.fired_groups):
            self.within(f"{path}.fired_groups[{i}]", g, 1, self.groups)
        if u.overwatch_group is not None:
            self.within(f"{path}.overwatch_group", u.overwatch_group, 1, self.groups)
        if u.reaction is not None:  # O6.2
            self.within(f"{path}.reaction.group", u.reaction.group, 1, self.groups)
            self.within(f"{path}.reaction.direction", u.reaction.direction, 0, 5)
        if u.sweep is not None:  # O6.6
            self.within(f"{path}.sweep", u.sweep, 1, self.groups)

    def battle(self, b: Battle) -> None:
        p = "snapshot.battle"
        self.within(f"{p}.map.width", b.map.width, 1, self.map_max[0])
        self.within(f"{p}.map.height", b.map.height, 1, self.map_max[1])
        self.within(f"{p}.difficulty", b.difficulty, *self.difficulty)
        self.known(f"{p}.landscape", b.landscape, self.landscapes, "landscape")
        sides = [s.side for s in b.sides]
        third = [s for s in sides if s not in ("player", "enemy")]
        if sorted(sides[:2]) != ["enemy", "player"] or len(set(sides)) != len(sides):
            self.fail(f"{p}.sides", "must describe the player's side and the enemy's")
        elif third and not b.rule("O10"):
            self.fail(f"{p}.sides", "allied and neutral sides need optional module O10")
        for i, u in enumerate(b.units):
            if u.side not in sides:
                self.fail(f"{p}.units[{i}].side", f"{u.side!r} is not a side of the battle")
            if u.left and u.side not in third:  # O10.6: only a third party leaves the map
                self.fail(f"{p}.units[{i}].left", "only an allied or neutral frame leaves")
        for i, g in enumerate(b.grudges):  # O10.5: grudges of the sides, never negative
            if "neutral" not in sides or g.side not in sides or g.side == "neutral":
                self.fail(f"{p}.grudges[{i}].side", f"no grudge against {g.side!r} here")
            self.within(f"{p}.grudges[{i}].amount", g.amount, 1, None)
        before = len(self.found)
        ids = self.unique(f"{p}.units", (u.id for u in b.units), "unit")
        if len(self.found) > before:
            return  # the units cannot be told apart: the rest would only repeat it
        for i, u in enumerate(b.units):
            self.unit(f"{p}.units[{i}]", u, b)
            if u.downed_by is not None:
                self.known(f"{p}.units[{i}].downed_by", u.downed_by, ids, "unit")
        self.facings(p, b)
        self.within(f"{p}.round", b.round, 0, None)
        for i, unit_id in enumerate(b.order):
            self.known(f"{p}.order[{i}]", unit_id, ids, "unit")
        self.within(f"{p}.turn", b.turn, 0, len(b.order))
        for i, link in enumerate(b.uplinks):
            self.known(f"{p}.uplinks[{i}].target", link.target, ids, "unit")
            if link.user:
                self.known(f"{p}.uplinks[{i}].user", link.user, ids, "unit")
        self.features(p, b)
        if (b.objectives or b.tally is not None) and not b.rule("O11"):
            self.fail(f"{p}.objectives", "objectives and the tally need optional module O11")
        self.objectives(f"{p}.objectives", b.objectives, b)
        if b.tally is not None:
            for i, n in enumerate((*b.tally.shots, b.tally.equipment, b.tally.collateral)):
                self.within(f"{p}.tally[{i}]", n, 0, None)
        self.commanders(p, b, ids)

    def commanders(self, p: str, b: Battle, ids: Collection[str]) -> None:
        """O9: orders, formations and abilities only under O9; known formations and
        abilities, screens and frames that exist, one formation record per side."""
        held = any(u.abilities or u.abilities_used or u.dodging for u in b.units)
        if (b.formations or held) and not b.rule("O9"):
            self.fail(f"{p}.formations", "formations and abilities need optional module O9")
            return
        kinds = set(FORMATIONS)
        sides = [f.side for f in b.formations]
        if len(set(sides)) != len(sides):
            self.fail(f"{p}.formations", "a side has two formation records")
        for i, f in enumerate(b.formations):
            at = f"{p}.formations[{i}]"
            self.known(f"{at}.order", f.order, kinds, "formation")
            self.known(f"{at}.effect", f.effect, kinds, "formation")
            for j, sid in enumerate((*f.screens, *f.effect_screens, *f.screen_targets)):
                self.known(f"{at}.screens[{j}]", sid, ids, "unit")
            if f.axis is not None:
                self.within(f"{at}.axis", f.axis, 0, 5)
            self.within(f"{at}.plan_round", f.plan_round, 0, b.round)
        abilities = {a.id for a in self.cat.formations.ability}
        for i, u in enumerate(b.units):
            for j, a in enumerate((*u.abilities, *u.abilities_used)):
                self.known(f"{p}.units[{i}].abilities[{j}]", a, abilities, "ability")

    def facings(self, p: str, b: Battle) -> None:
        """O4: every frame faces one of the six directions under O4, none (and has not
        pivoted) without it."""
        o4 = b.rule("O4")
        for i, u in enumerate(b.units):
            at = f"{p}.units[{i}]"
            if not o4 and (u.facing is not None or u.pivoted):
                self.fail(f"{at}.facing", "a facing needs optional module O4")
            elif o4 and u.facing is None:
                self.fail(f"{at}.facing", "every frame faces a direction under optional module O4")
            elif u.facing is not None:
                self.within(f"{at}.facing", u.facing, 0, 5)

    def features(self, p: str, b: Battle) -> None:
        """O3: sections and smoke only under O3, on the map, one per hex, known kinds and
        variants, durability within its stage's full; charges within the launcher's."""
        data = self.cat.structures
        if (b.structures or b.smoke or any(u.smoke_used for u in b.units)) and not b.rule("O3"):
            self.fail(f"{p}.structures", "structures and smoke need optional module O3")
            return
        kinds = {f.id for f in data.feature}
        variants = {v.id for v in data.variant}
        seen: set[object] = set()
        for i, s in enumerate(b.structures):
            at = f"{p}.structures[{i}]"
            if not b.map.contains(s.hex):
                self.fail(f"{at}.hex", f"{list(s.hex)} is off the {b.map.width}x{b.map.height} map")
            if s.hex in seen:
                self.fail(f"{at}.hex", f"{list(s.hex)} holds two sections")
            seen.add(s.hex)
            ok = self.known(f"{at}.feature", s.feature, kinds, "feature")
            if self.known(f"{at}.variant", s.variant, variants, "variant") and ok:
                self.within(f"{at}.durability", s.durability, 0, full_durability(s))
        for i, c in enumerate(b.smoke):
            if not b.map.contains(c.hex):
                self.fail(f"{p}.smoke[{i}].hex", f"{list(c.hex)} is off the map")
            self.within(f"{p}.smoke[{i}].rounds", c.rounds, 1, MAX_COUNT)
        for i, u in enumerate(b.units):
            self.within(f"{p}.units[{i}].smoke_used", u.smoke_used, 0, data.smoke.charges)

    def state(self, s: GameState) -> None:
        if s.rng.seed != s.seed:
            self.fail("snapshot.rng.seed", f"is {s.rng.seed}, not the game's seed {s.seed}")
        self.within("snapshot.commands_applied", s.commands_applied, 0, None)
        where = "snapshot.campaign.ruleset" if s.campaign is not None else "snapshot.battle.ruleset"
        reason = ruleset_refusal(s.ruleset)
        if reason:
            self.fail(where, f"cannot be played: {reason}")
        if s.battle is not None and s.battle.ruleset != s.ruleset:
            self.fail(
                "snapshot.battle.ruleset",
                f"is {format_ruleset(s.battle.ruleset) or 'core'}, not the campaign's "
                f"{format_ruleset(s.ruleset) or 'core'}",
            )
        if s.battle is not None:
            self.battle(s.battle)
        if s.campaign is not None:
            self.campaign(s.campaign, s.battle)


def problems(state: GameState, cat: Catalog | None = None) -> list[str]:
    """What makes `state` unusable, each naming its field; empty when it can be used."""
    checker = _Checker(cat or catalog())
    with contextlib.suppress(_Stop):
        checker.state(state)
    return checker.found
