"""What the contracts board and the launch panel show (screens/contracts.py holds the keys):
the board's rows, a contract's briefing (the enemy force, its pilots, the threat to the
lance), the launch head and the lance's warnings. Pure: from the campaign, the engine's
briefing (`campaign.briefing`) and the threat assessment (`players.assess`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ...campaign.briefing import EnemyBrief, enemy_brief, lance_tonnage
from ...campaign.contracts import ContractRow
from ...campaign.state import Campaign, Contract
from ...catalog import catalog
from ...players.assess import Assessment
from ..glyphs import Glyphs

BOARD_COLUMNS = ("Id", "For", "Vs", "Dif", "Reward", "Enemy", "Tons", "Threat")
RATING_STYLE = {"low": "green", "moderate": "yellow", "high": "bold red", "extreme": "bold red"}
PENDING = "soon"  # the threat column while the battles are being run
#: O10: the board's Enemy cell marks a contract with an allied or a neutral lance.
THIRD_MARK = {"ally": " +ally", "neutral": " +neut"}


def abbrev(faction: str) -> str:
    f = catalog().factions.get(faction)
    return f.abbrev if f is not None else faction


def thousands(low: int, high: int) -> str:
    return f"{low // 1000}-{high // 1000}k"


def threat_cell(assessment: Assessment | None, known: bool) -> Text:
    """The board's Threat cell: the rating in words (its colour is never the only sign)."""
    if not known:
        return Text(PENDING, style="dim")
    if assessment is None:
        return Text("-", style="dim")
    return Text(assessment.rating, style=RATING_STYLE[assessment.rating])


def board_cells(row: ContractRow, contract: Contract, threat: Text) -> tuple[object, ...]:
    brief = enemy_brief(contract)
    return (
        row.id,
        abbrev(row.employer),
        abbrev(row.opponent),
        str(row.difficulty),
        thousands(row.reward_min, row.reward_max),
        brief.classes() + (THIRD_MARK[contract.third_party.kind] if contract.third_party else ""),
        Text(str(brief.tonnage), justify="right"),
        threat,
    )


def pilots_text(brief: EnemyBrief) -> str:
    return f"gunnery {brief.gunnery}, piloting {brief.piloting}, tactics {brief.tactics}"


def force_lines(brief: EnemyBrief, g: Glyphs) -> list[str]:
    """One line per enemy frame: chassis, class, tons, its loadout in brief."""
    out = []
    for f in brief.frames:
        gear = f"; {f.equipment}" if f.equipment else ""
        out.append(
            f" {g.dot} {f.designation} {f.name} ({f.frame_class}, {f.tonnage} t): {f.weapons}{gear}"
        )
    return out


def lance_words(campaign: Campaign, frame_ids: Sequence[str]) -> str:
    """`F3+F4 (50 t)`."""
    return f"{'+'.join(frame_ids)} ({lance_tonnage(campaign, frame_ids)} t)"


def threat_text(
    campaign: Campaign,
    frame_ids: Sequence[str],
    assessment: Assessment | None,
    known: bool,
    g: Glyphs,
) -> Text:
    """`Threat to F3+F4 (50 t): HIGH · 8 AI battles: won 4 of 8...`."""
    text = Text()
    if not frame_ids:
        text.append("Threat: no frame can deploy, so there is no lance to judge it against.")
        return text
    text.append(f"Threat to {lance_words(campaign, frame_ids)}: ")
    if not known:
        text.append("assessing (the AI fights it a few times)...", style="dim")
        return text
    if assessment is None:
        text.append("cannot be judged: this lance cannot launch it.")
        return text
    text.append(assessment.rating.upper(), style=RATING_STYLE[assessment.rating])
    text.append(f" {g.sep} {assessment.battles} AI battles: {assessment.summary()}")
    return text


def heading(row: ContractRow, g: Glyphs, standing: bool) -> Text:
    """`C1 for Terran Directorate (Neutral) against Crucible Industries · difficulty 3`."""
    text = Text()
    text.append(row.id, style="bold")
    employer = f"{row.employer_name} ({row.standing})" if standing else row.employer_name
    text.append(f" for {employer} against {row.opponent_name} {g.sep} difficulty {row.difficulty}")
    return text


def contract_detail(
    campaign: Campaign, row: ContractRow, contract: Contract, threat: Text, g: Glyphs
) -> Text:
    """The board's briefing of the highlighted contract."""
    brief = enemy_brief(contract)
    text = heading(row, g, standing=True)
    text.append(
        f"\nVictory pays {row.reward_min:,}-{row.reward_max:,} cr at full pay {g.sep} "
        f"{row.map_size} map {row.map_width}x{row.map_height}, {row.landscape}\n"
    )
    text.append(
        f"Enemy: {brief.tonnage} tons, pilots {pilots_text(brief)}; it {row.enemy_withdrawal}\n"
    )
    text.append("\n".join(force_lines(brief, g)) + "\n")
    if row.objectives:  # O11: the objectives, a hidden one as "?"
        text.append(objectives_text(row, g) + "\n")
    if row.third_party:  # O10.1: shown before acceptance
        text.append(third_party_line(contract, row) + "\n")
    text.append_text(threat)
    text.append("\nEnter: plan the launch.", style="dim")
    return text


def objectives_text(row: ContractRow, g: Glyphs) -> str:
    """O11: `Objectives: OB3 Swift +10% · OB1 Decapitate +10% · ? (hidden)`."""
    shown = [o if o != "?" else "? (hidden)" for o in row.objectives]
    return f"Objectives: {f' {g.sep} '.join(shown)}"


def third_party_line(contract: Contract, row: ContractRow) -> str:
    """O10: `Third party: an allied lance of DIR: 2 Light; the AI plays it, pay 90%`."""
    third = contract.third_party
    if third is None:
        return ""
    if third.kind == "ally":
        share = catalog().third_parties.rewards.ally_reward_percent
        how = f"the AI plays it; the employer pays {share}%, allied kills are not salvage"
    else:
        how = "it fights only a side that hurts it; its wrecks are salvage, at a standing cost"
    return f"Third party: {row.third_party}; {how}"


def launch_head(row: ContractRow, contract: Contract, g: Glyphs) -> Text:
    brief = enemy_brief(contract)
    text = heading(row, g, standing=False)
    text.append(f" {g.sep} {row.map_size} map {row.map_width}x{row.map_height}\n")
    text.append(
        f"Enemy: {brief.classes()}, {brief.tonnage} t {g.sep} pilots G{brief.gunnery} "
        f"P{brief.piloting} T{brief.tactics} {g.sep} it {row.enemy_withdrawal}"
    )
    if row.objectives:
        text.append("\n" + objectives_text(row, g))
    if row.third_party:  # O10.1
        text.append(f"\nWith {row.third_party}")
    return text
