"""How to play: the game explained in pages, every number drawn from the rules data.

Each page is a title and its lines. Nothing here restates a rule number: the costs, chances,
limits and prices come from the catalog, and the worked hit chance is summed and clamped by
the engine's own `combat.attack.HitChance` with its range modifier from
`combat.attack.range_modifier`, so a change to a data file changes the page. Tables are
narrow (at most `WIDTH` columns) so that they fit the 80-column screen whole.
"""

from __future__ import annotations

from collections.abc import Callable

from attrs import frozen

from .catalog import Catalog
from .combat.attack import HitChance, Modifier, range_modifier

WIDTH = 54  # the widest line of a table: the page's pane at 80 columns


@frozen
class Page:
    title: str
    lines: tuple[str, ...]


def _cr(n: int) -> str:
    return f"{n:,} cr"


def _first_hour(cat: Catalog) -> list[str]:
    start = cat.start
    place = cat.places[start.company.location].name if start.company.location in cat.places else ""
    frames = []
    for f in start.frame:
        ch = cat.chassis[f.chassis]
        frames.append(f"{ch.name} ({cat.frame_class(ch).name}, {f.pilot})")
    upkeep = sum(cat.frame_class(cat.chassis[f.chassis]).upkeep for f in start.frame)
    easy = cat.reward(cat.missions.difficulty.min)
    outcome = cat.economy.outcome
    return [
        f"You command a mercenary company at {place} with {_cr(start.company.credits)} "
        f"and {len(frames)} frames: {', '.join(frames)}.",
        "",
        "1. Time passes only when you let it: d lets a day pass, w a week; travel and "
        f"repairs take days too. Each day costs upkeep ({_cr(upkeep)} a day for the "
        "starting frames), so idle days eat your money.",
        "2. Find work in Contracts (6). Each contract shows its pay, difficulty, the enemy "
        "frames and a threat rating against your lance. Start easy: difficulty "
        f"{cat.missions.difficulty.min} pays {_cr(easy.base)} and up.",
        "3. Enter opens a contract's launch panel: Space picks the frames of your lance, "
        "l launches. Each frame deployed costs its deployment fee.",
        "4. The battle: place your frames in the marked zone, then each round every frame "
        "acts in turn (the Battle page). ? shows the keys of every screen.",
        f"5. Pay by the outcome: victory {outcome.victory}% of the reward "
        f"({outcome.zero_losses_bonus}% with no frame lost), withdrawal "
        f"{outcome.withdrawal}%, defeat {outcome.defeat}%. After a win you pick salvage; "
        "pilots earn experience, which buys skill levels (Pilots, 2: t).",
        "6. Damaged frames need repair (Roster, 1: r) before they deploy again. The Market "
        "(3) sells frames, weapons and equipment; the Refit bay (4) fits them; the Galaxy "
        "(5) takes you to other markets and employers.",
        f"7. The company folds after {cat.economy.failure.negative_credit_days} days in a "
        f"row below zero credits, or {cat.economy.failure.idle_days} days without a "
        "deployment when no frame can deploy.",
        "",
        "ctrl+p searches every command of the screen in front; Escape goes back.",
    ]


def _battle(cat: Catalog) -> list[str]:
    rounds = cat.combat.rounds
    ap = cat.combat.ap_costs
    mv = cat.combat.movement
    acc = cat.combat.accuracy
    rows = [
        ("Move", ap.move, "up to the class's hexes (below)"),
        (
            "Sprint",
            ap.sprint,
            f"{mv.sprint_range_multiplier}x hexes, {mv.sprint_energy_multiplier}x energy",
        ),
        ("Fire a group", ap.fire_group, "every weapon of one group"),
        ("Called shot", ap.called_shot, f"pick the location, -{acc.called_shot}% to hit"),
        ("Brace", ap.brace, f"-{acc.brace}% to hit it until the next round"),
        ("Overwatch", ap.overwatch, f"fire at the round's end, -{acc.overwatch}%"),
        ("Vent", ap.vent, "lower reactor stress (Energy page)"),
        ("Equipment", ap.equipment, "use active equipment"),
    ]
    out = [
        "A battle goes in rounds. At the start of each, every frame gets its reactor's "
        f"energy and {rounds.action_points} action points (AP; {rounds.gyro_hit_action_points} "
        "with a damaged gyro). Frames act one at a time, fastest first (Speed, then the "
        "pilot's Piloting). Frames on overwatch fire last; then reactor stress is settled.",
        "",
        f"{'Action':<13}{'AP':>3}  What it does",
    ]
    out += [f"{name:<13}{cost:>3}  {what}" for name, cost, what in rows]
    out += ["", "Hexes a Move goes, by class (terrain may cost more than 1 a hex):"]
    out.append("  " + ", ".join(f"{c.name} {c.hex_movement}" for c in cat.classes.values()))
    out.append(
        f"Moving away from the nearest enemy costs {mv.pullback_energy_percent}% of the "
        "move's energy."
    )
    out += [
        "",
        "You win when every enemy frame is destroyed or the enemy withdraws; you lose "
        f"when all of yours are. After {rounds.round_limit} rounds you withdraw. In any "
        "of your frames' turns you may order the withdrawal yourself (for part of the pay: "
        "the Money page).",
    ]
    return out


def _hitting(cat: Catalog) -> list[str]:
    acc = cat.combat.accuracy
    start = cat.start.frame[0]
    shooter = cat.chassis[start.chassis]
    pilot = next(p for p in cat.pilots.starting_pilot if p.callsign == start.pilot)
    weapon = cat.weapons[start.loadout[0].weapon]
    target = min(cat.chassis.values(), key=lambda c: (c.tonnage, c.designation))
    cover = max(cat.terrain.values(), key=lambda t: t.defense)
    rc = cat.range_class(weapon.range)
    dist = rc.optimal_min
    rng = range_modifier(weapon.range, dist) or 0

    def chance(*extra: Modifier, at: int = dist, in_cover: bool = True) -> HitChance:
        mods = [
            Modifier("base", weapon.accuracy),
            Modifier("gunnery", pilot.gunnery * acc.gunnery_per_point),
            Modifier("evasion", -target.evasion),
            Modifier("range", range_modifier(weapon.range, at) or 0),
        ]
        if in_cover:
            mods.append(Modifier("cover", -cover.defense))
        return HitChance.of([*mods, *extra])

    example = chance()
    out = [
        "Every shot rolls d100 against its hit chance:",
        "",
        "  weapon accuracy",
        f"  + {acc.gunnery_per_point} x the pilot's Gunnery",
        "  - the target's evasion (its chassis)",
        "  +/- range (each weapon has a best band)",
        "  - cover (the ground the target stands on)",
        "  - line of sight (each hex of woods or rocks between)",
        f"  - {acc.called_shot} for a called shot, - {acc.brace} if the target braced,",
        f"    - {acc.overwatch} on overwatch, - {acc.sensor_hit} with damaged sensors",
        f"  clamped to {acc.min_chance}%-{acc.max_chance}%.",
        "",
        f"For example {pilot.callsign} (Gunnery {pilot.gunnery}) in the {shooter.name} fires "
        f"the {weapon.name} at a {target.name} {dist} hexes away in {cover.name}:",
        f"  {weapon.accuracy} + {pilot.gunnery * acc.gunnery_per_point} - {target.evasion} "
        f"{'+' if rng >= 0 else '-'} {abs(rng)} - {cover.defense} = {example.total}: "
        f"{example.chance}% to hit.",
        f"  Called shot {chance(Modifier('called', -acc.called_shot)).chance}%, "
        f"braced {chance(Modifier('brace', -acc.brace)).chance}%, "
        f"in the open {chance(in_cover=False).chance}%.",
        "",
        f"The {weapon.name}'s chance by distance ({rc.name} range, best "
        f"{rc.optimal_min}-{rc.optimal_max} hexes, at most {rc.max_range}):",
    ]
    cells = [f"{d:>2}: {chance(at=d).chance:>2}%" for d in range(1, rc.max_range + 1)]
    out += ["  " + "  ".join(cells[i : i + 6]) for i in range(0, len(cells), 6)]
    out += ["", "Cover and line of sight by ground:"]
    out += [
        f"  {t.name:<10} cover -{t.defense:<3} each hex between -{t.los_penalty}"
        for t in cat.terrain.values()
        if t.defense or t.los_penalty
    ]
    return out


def _damage(cat: Catalog) -> list[str]:
    locations = cat.combat.location
    weight = sum(loc.hit_weight for loc in locations)
    dmg = cat.combat.damage
    names = {loc.id: loc.name for loc in locations}
    out = [
        "A hit lands on a location drawn by weight (a called shot picks it):",
        "",
    ]
    out += [f"  {loc.name:<13} {100 * loc.hit_weight / weight:>3.0f}%" for loc in locations]
    out += [
        "",
        "Damage takes the location's armour first, then its structure. Each hit on "
        "structure rolls for a component (d100):",
    ]
    out += [f"  {c.low:>2}-{c.high:<2} {c.name}" for c in cat.combat.component]
    transfers = [f"{loc.name} to {names[loc.transfer_to]}" for loc in locations if loc.transfer_to]
    out += [
        "",
        "A location at 0 structure is destroyed with every weapon on it; what is left of "
        f"the damage moves on: {'; '.join(transfers)}.",
        f"The {names['center_torso']} destroyed destroys the frame.",
        f"The {names['head']} destroyed breaches the cockpit: the pilot lives with a "
        f"chance of {dmg.head_survival_base}% + {dmg.head_survival_per_piloting}% per "
        "Piloting point (injured, no gunnery bonus) or dies and the frame is out.",
        f"In a destroyed frame the pilot dies {dmg.destroyed_pilot_kia_chance}% of the time.",
        "",
        "Before you fire, the target panel gives the exact chances that the shot destroys "
        "each location, the frame, or kills the pilot.",
    ]
    return out


def _energy(cat: Catalog) -> list[str]:
    r = cat.combat.reactor
    mv = cat.combat.movement
    ch = cat.chassis[cat.start.frame[0].chassis]
    limit = ch.reactor * r.overload_percent // 100
    shutdown_at = ch.reactor * r.auto_shutdown_percent // 100
    vent = max(r.vent_min, ch.reactor // r.vent_divisor)
    cool = max(r.dissipation_min, ch.reactor // r.dissipation_divisor)
    return [
        "Every round a frame gets its reactor's output in energy. Each weapon fired costs "
        "its energy (some ammunition weapons cost none but run dry); each Move costs the "
        f"chassis's move energy ({mv.leg_actuator_energy} more for each leg actuator hit).",
        "",
        f"A frame may overload up to {r.overload_percent}% of its output. Each point past "
        "the output becomes reactor stress. Stress as high as the output risks a shutdown "
        f"({r.shutdown_chance}% a round); at {r.auto_shutdown_percent}% of the output the "
        "reactor shuts down for sure and is damaged. A shut-down frame loses a round and "
        f"keeps {r.shutdown_stress_keep_percent}% of its stress.",
        "",
        f"For example the {ch.name}: energy {ch.reactor} a round, {limit} with overload; "
        f"a Move costs {ch.move_energy}. Stress {ch.reactor} risks a shutdown, "
        f"{shutdown_at} forces one. Each round it sheds {cool} stress; Vent sheds {vent}.",
        "",
        "Weapon groups (1-4, set in the Refit bay) decide what fires together: keep a "
        "group plus a Move within the output and you never build stress.",
    ]


def _money(cat: Catalog) -> list[str]:
    e = cat.economy
    out = ["Rewards by difficulty (base + a random bonus up to):", ""]
    out += [f"  {r.difficulty}: {_cr(r.base):>12} + {_cr(r.bonus_max):>10}" for r in e.reward]
    out += [
        "",
        f"{'Class':<9}{'Upkeep/day':>12}{'Deploy':>10}",
        *(f"{c.name:<9}{c.upkeep:>12,}{c.deployment_cost:>10,}" for c in cat.classes.values()),
        "",
        f"Repair: {e.repair.chassis_percent}% of the chassis price times the share of damage, "
        f"plus {_cr(e.repair.per_component)} per damaged component; "
        f"{e.repair.days_per_ratio} days at full damage (at least {e.repair.min_days}). "
        f"A rush costs {e.repair.rush_cost_multiplier}x and takes 1/"
        f"{e.repair.rush_time_divisor} of the time. A destroyed frame is rebuilt at the "
        f"full chassis price in {e.repair.rebuild_days} days. Below "
        f"{e.repair.ready_threshold_percent}% damage no repair is needed.",
        f"Refit: {_cr(e.prices.refit_cost)} and {e.prices.refit_days} day per item fitted "
        "or removed.",
        f"Selling gives {e.prices.sell_percent}% of the price. Fuel costs "
        f"{_cr(e.prices.fuel_price)} a unit.",
        "Contracts for a faction raise your standing with it: better pay and prices, and "
        "at the top its exclusive gear.",
    ]
    return out


PAGES: tuple[tuple[str, Callable[[Catalog], list[str]]], ...] = (
    ("Your first hour", _first_hour),
    ("A battle round", _battle),
    ("Hitting", _hitting),
    ("Damage", _damage),
    ("Energy and stress", _energy),
    ("Money", _money),
)


def pages(cat: Catalog) -> tuple[Page, ...]:
    return tuple(Page(title, tuple(build(cat))) for title, build in PAGES)
