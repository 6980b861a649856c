"""Write the golden recordings of `tests/golden/v3/`: battle logs and saves made by the engine.

    python -m tests.golden.make [OUT_DIR]

Each rules version has a folder of its own, made once and kept for ever:

- `v1/`: made by mac-tui 0.1.0 (save format 1, rules version 1) before the engine core, the
  players layer and the save hardening were built. Its saves must load in every later version
  (through the save-format migrations); its battle logs are kept as a record (rules version 2
  plays other battles from the same seeds).
- `v2/`: rules version 2 (R14 amended, R29, R30, the enemy's withdrawal rule by difficulty),
  save format 3, written by the code of its day (this script with `HERE` at `v2`). Its saves
  must load in every later version; its battle logs are kept as a record.
- `v3/` (this script): rules version 3 (issue 15's balance, docs/balance.md: called shots from
  Tactics 5, the opening board's difficulty-1 contract, the end after 60 days without a frame
  that can deploy; the autopilot's campaign fights `auto-battle careful`), save format 4 (the
  pilots' service records). The
  battle logs are still played by the first AI (`ai_v1`) on both sides, so they pin the combat
  rules, not the planner; the campaign saves are the autopilot's (the planner in its battles:
  the log holds every command, so their replay needs no AI).

The same kinds in each:

- `battle-d{D}.jsonl`: `mac-tui sim` battle logs (the first AI on both sides) at every
  difficulty; the same seed must give the very same bytes while the rules version stays the
  folder's (`test_golden.py`).
- `*.json`: saves of every kind a player can leave behind: a year-long campaign, a campaign in
  the middle of a contract battle, a campaign with its after-action report open, and a quick
  battle in progress. Replaying their commands must rebuild them byte for byte under the
  folder's rules version (the log holds every command the AI gave, so the replay needs no AI),
  and every later version of the game must load them (save-format migrations).

Regenerate only on purpose (a new rules version gets a new folder; old folders never change).
"""

from __future__ import annotations

import sys
from pathlib import Path

from mac_tui.game import Accepted, parse_command
from mac_tui.players.ai_v1 import decide as ai_v1  # the first AI
from mac_tui.players.autopilot import next_line
from mac_tui.players.autorun import autoplay
from mac_tui.players.driver import drive
from mac_tui.players.sim import run_battle
from mac_tui.save import to_json
from mac_tui.script import AUTO_BATTLE, run_line
from mac_tui.session import Session

HERE = Path(__file__).parent / "v3"
BATTLE_SEEDS = {1: 101, 2: 202, 3: 303, 4: 404, 5: 505}
YEAR_SEED = 14  # the autopilot's company lives through the year with this seed
MID_SEED = 7
SKIRMISH_SEED = 2026
MID_BATTLE_AI_COMMANDS = 9  # commands of the battle played before the mid-battle save


def battle_log(difficulty: int) -> str:
    log: list[str] = []
    run_battle(
        BATTLE_SEEDS[difficulty], difficulty, policies={"player": ai_v1, "enemy": ai_v1}, log=log
    )
    return "\n".join(log) + "\n"


def ai_steps(session: Session, count: int) -> None:
    """Let the AI play `count` commands of the battle for whichever side is to act."""
    driven = drive(
        session.state,
        {"player": ai_v1, "enemy": ai_v1},
        apply=lambda _state, command: session.apply(command),
        max_commands=count,
    )
    assert driven.commands == count, "the battle ended first"


def campaign_until(seed: int, stop_verb: str) -> Session:
    """Play the autopilot's lines from `seed` up to and including the first `stop_verb` line."""
    session = Session.new(seed)
    for number in range(1, 10_000):
        line = next_line(session.state)
        assert line is not None
        result = run_line(session, number, line)
        assert result is not None and result.accepted, (line, result)
        if line.split()[0] == stop_verb:
            return session
    raise AssertionError(f"no {stop_verb!r} line")


def saves() -> dict[str, Session]:
    year = autoplay(YEAR_SEED, days=365, missions=10).session
    mid = campaign_until(MID_SEED, "accept")
    mid.apply(parse_command("auto-deploy"))
    mid.apply(parse_command("start-battle"))
    ai_steps(mid, MID_BATTLE_AI_COMMANDS)
    after = campaign_until(MID_SEED, AUTO_BATTLE)
    assert after.state.campaign is not None and after.state.campaign.after_action is not None
    skirmish = Session.new(SKIRMISH_SEED)
    for line in ("new-skirmish 2", "auto-deploy", "start-battle"):
        assert isinstance(skirmish.apply(parse_command(line)), Accepted), line
    ai_steps(skirmish, 6)
    return {
        "campaign-year": year,
        "campaign-mid-battle": mid,
        "campaign-after-action": after,
        "skirmish-mid-battle": skirmish,
    }


def main(out: Path = HERE) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for difficulty in BATTLE_SEEDS:
        (out / f"battle-d{difficulty}.jsonl").write_text(battle_log(difficulty), encoding="utf-8")
    for name, session in saves().items():
        (out / f"{name}.json").write_text(to_json(session.to_save()), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
