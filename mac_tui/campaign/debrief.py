"""The roguelike debrief (R28): a plain-text account of a finished run, for a file.

Pure: it builds the text from the campaign and what the caller hands it (the seed, the last
lines of news); the command line or the screens decide where to write it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..catalog import catalog
from .calendar import date_text
from .state import Campaign

RULE = "=" * 60


def debrief_text(
    campaign: Campaign, seed: int, events_tail: Sequence[str], cause: str | None
) -> str:
    """R28: company, seed, days survived, missions won/played, credits, reputation, standing,
    the roster, the last events and the cause of the end (`cause`, else `campaign.ended`)."""
    cat = catalog()
    why = cause or campaign.ended or "the company stood down"
    won, played = campaign.missions_won, campaign.missions_played
    lines = [
        RULE,
        f"DEBRIEF: {campaign.company}",
        RULE,
        f"Seed:            {seed}",
        f"Ended:           {date_text(campaign.day)} at {cat.places[campaign.place].name}",
        f"Days survived:   {campaign.day - 1}",
        f"Missions:        {won} won of {played} played",
        f"Credits:         {campaign.credits:,}",
        f"Reputation:      {campaign.reputation}",
        "Standing:        "
        + ", ".join(
            f"{cat.factions[f].short if f in cat.factions else f} {v}" for f, v in campaign.standing
        ),
        "",
        "Frames:",
    ]
    lines += [
        f"  {f.id:<4} {f.name:<24} {f.status:<10} {f.pilot or '-'}" for f in campaign.frames
    ] or ["  none"]
    lines.append("")
    lines.append("Pilots:")
    lines += [
        f"  {p.callsign:<12} {p.status:<8} G{p.gunnery} P{p.piloting} T{p.tactics}  {p.xp} XP"
        for p in campaign.pilots
    ] or ["  none"]
    lines.append("")
    lines.append("Last events:")
    lines += [f"  {line}" for line in events_tail] or ["  none"]
    lines += ["", f"Cause: {why}", RULE, ""]
    return "\n".join(lines)
