"""`Moment`: the battle as the screen sees it now, what the modes and the action table read.

Built from the game state after every change (`Moment.of`), never changed: the battle under
way (or, once the engine has settled it, the last picture of it), the commands the engine
accepts from the player now, whether the AI plays the player's frames too, and how it ended.
"""

from __future__ import annotations

import attrs
from attrs import field, frozen

from ....combat import preview
from ....combat.commands import FireGroup
from ....combat.firing import check_fire
from ....combat.forecast import Forecast, forecast_group
from ....combat.legal import legal_commands
from ....combat.state import Battle, Unit
from ....game import Accepted, Command, step
from ....hexgrid import Hex
from ....model import GameState
from ....players.ai import decide
from ....players.driver import Seats, battle_seats, policy_to_act
from ...threat_view import ThreatWork


@frozen
class Moment:
    battle: Battle | None  # the battle under way (None once the engine has settled it)
    shown: Battle | None  # the battle drawn: the one under way, or the last picture of it
    legal: tuple[Command, ...] = ()  # what the player may order now (empty on the AI's turn)
    auto: bool = False  # the AI plays the player's frames too
    result: str | None = None  # how it ended
    called_ok: bool = False  # some group can aim a called shot now
    ascii: bool = False  # the glyphs setting is ascii
    contract: str | None = None  # the contract fought for (None: a quick battle)
    ai_acts: bool = False  # the AI has the next order (its side's, or the player's on auto)
    seed: int = 0  # the game's seed
    tutorial: bool = False  # the battle is the tutorial's (players/tutorial.py)
    _previews: dict[tuple[str, int, str, str | None], preview.FirePreview] = field(
        factory=dict, eq=False, repr=False
    )
    _forecasts: dict[tuple[str, int, str, str | None], Forecast | None] = field(
        factory=dict, eq=False, repr=False
    )
    _reaches: dict[tuple[str, bool, bool], frozenset[Hex]] = field(
        factory=dict, eq=False, repr=False
    )
    _threats: list[ThreatWork] = field(factory=list, eq=False, repr=False)
    _kinds: set[type] = field(factory=set, eq=False, repr=False)  # the kinds of `legal`

    @classmethod
    def of(
        cls,
        state: GameState,
        shown: Battle | None,
        *,
        auto: bool,
        ascii: bool = False,
        tutorial: bool = False,
    ) -> Moment:
        battle = state.battle
        shown = shown or battle
        result = _result(state, shown)
        contract = _contract(state)
        ai_acts = (
            battle is not None
            and battle.phase == "combat"
            and policy_to_act(state, seats(battle, auto)) is not None
        )
        moment = cls(
            battle,
            shown,
            auto=auto,
            result=result,
            ascii=ascii,
            contract=contract,
            ai_acts=ai_acts,
            seed=state.seed,
            tutorial=tutorial,
        )
        if moment.orders:
            legal = tuple(legal_commands(state, called_shots=False))
            moment = attrs.evolve(moment, legal=legal, called_ok=_called_ok(moment, legal))
        return moment

    @property
    def phase(self) -> str:
        return self.battle.phase if self.battle is not None else "over"

    @property
    def actor(self) -> Unit | None:
        """The frame acting now, if the player commands it."""
        battle = self.battle
        unit = battle.active_unit if battle is not None else None
        if unit is None or battle is None or battle.side_info(unit.side).ai:
            return None
        return unit

    @property
    def orders(self) -> bool:
        """The player gives the orders now: placing the lance, or a frame's activation."""
        if self.phase == "deployment":
            return True
        return self.phase == "combat" and self.actor is not None and not self.auto

    def offers(self, kind: type[Command]) -> bool:
        if not self._kinds:
            self._kinds.add(type(None))  # computed, even when nothing is legal
            self._kinds.update(type(c) for c in self.legal)
        return kind in self._kinds

    def fire_preview(
        self, unit: Unit, group: int, target: str, location: str | None
    ) -> preview.FirePreview:
        """The preview of a shot (computed once per moment, group, target and location)."""
        assert self.battle is not None
        key = (unit.id, group, target, location)
        found = self._previews.get(key)
        if found is None:
            found = self._previews[key] = preview.fire_preview(
                self.battle, unit, group, target, location
            )
        return found

    def reach(self, unit: Unit, sprint: bool, reverse: bool = False) -> frozenset[Hex]:
        """Every hex a Move (Sprint, reverse Move) of `unit` could end on
        (`preview.reach_hexes`), worked out once per moment (Move mode's cursor, m then Esc
        then m, ask for it again)."""
        assert self.battle is not None
        key = (unit.id, sprint, reverse)
        found = self._reaches.get(key)
        if found is None:
            found = self._reaches[key] = preview.reach_hexes(self.battle, unit, sprint, reverse)
        return found

    def forecast(
        self, unit: Unit, group: int, target: str, location: str | None
    ) -> Forecast | None:
        """The exact forecast of a shot (combat/forecast.py; None when the engine would refuse
        it), computed once per moment, group, target and location."""
        assert self.battle is not None
        key = (unit.id, group, target, location)
        if key not in self._forecasts:
            try:
                found: Forecast | None = forecast_group(
                    self.battle, unit.id, group, target, location
                )
            except ValueError:
                found = None
            self._forecasts[key] = found
        return self._forecasts[key]

    def threats(self) -> ThreatWork:
        """The threat view's work for this moment (tui/threat_view.py), made on first use;
        the screen steps it between keys."""
        if not self._threats:
            assert self.battle is not None
            self._threats.append(ThreatWork(self.battle, self.actor))
        return self._threats[0]


def seats(battle: Battle, auto: bool) -> Seats:
    """Who gives the battle's orders: the AI on the sides the battle runs by AI, and on the
    player's too while auto-resolve is on; the player elsewhere."""
    return battle_seats(battle, decide, everyone=auto)


def _called_ok(m: Moment, legal: tuple[Command, ...]) -> bool:
    battle, unit = m.battle, m.actor
    if battle is None or unit is None:
        return False
    return any(
        not isinstance(check_fire(battle, unit, c.group, c.target, "head"), str)
        for c in legal
        if isinstance(c, FireGroup)
    )


def _contract(state: GameState) -> str | None:
    """The contract fought for: the mission's, or once it is settled the after-action
    report's (None: a quick battle)."""
    campaign = state.campaign
    if campaign is None:
        return None
    if campaign.mission is not None:
        return campaign.mission.contract.id
    if campaign.after_action is not None:
        return campaign.after_action.contract.id
    return None


def _result(state: GameState, shown: Battle | None) -> str | None:
    """How the battle ended: the battle's result, or the settled mission's."""
    if shown is not None and shown.result is not None:
        return shown.result
    campaign = state.campaign
    if campaign is not None and campaign.after_action is not None:
        return campaign.after_action.result
    return None


def final_battle(before: GameState, command: Command) -> Battle | None:
    """The battle as the last command left it, for the picture of a campaign battle's end
    (the engine settles the mission in the same step and drops the battle from the state):
    the same command stepped on the same state without the campaign gives the same battle."""
    outcome = step(attrs.evolve(before, campaign=None), command)
    return outcome.state.battle if isinstance(outcome, Accepted) else before.battle
