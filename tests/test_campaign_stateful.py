"""The campaign as a state machine: random legal and illegal commands, invariants after each.

A hypothesis `RuleBasedStateMachine` holds a `Session` begun with `new-campaign` and plays it
as a player would, through `Session.apply`: plausible commands built from what the screens
offer (tests/campaign_moves.py: items in stock, the inventory, pilots and frames, refits one
change away from the current loadout, destinations, contracts with ready frames), battles
fought by the AI for both sides (a few random legal orders and withdrawals among them), the
after-action salvage; and junk that must be refused (unknown ids, bad quantities, wrong kinds,
picks beyond the allowance, campaign orders during a mission, anything once the run is over).

For every command: a refusal changes nothing (the state, its hash and the command log stay as
they were); an acceptance is deterministic and its text form parses back to the same command
(the save log depends on it). After every step the invariants of the issue hold:

- credits = the §13.3 starting credits + the sum of the ledger, and each entry's balance
  runs on from the one before (the last balance is the credits);
- standing within the §15.1 scale, fuel within 0 and the tank capacity (§14.3), reputation
  never below 0 (R21);
- inventory counts and market stock positive (sold out items leave the lists);
- every frame's loadout passes `refit.check_loadout` (space and hardpoints, §7.1-§7.7), its
  armour and structure within the chassis' full values; a frame is Damaged exactly when it
  needs repair (R20) and under repair only while it has bay days left;
- a pilot flies at most one frame, every seated pilot exists, KIA pilots and destroyed frames
  fly nothing; a mission has a battle and the battle a mission;
- the session's log, checkpoints and `commands_applied` agree.

At any moment (mid-battle and mid-debrief included) the game may be saved and loaded through
`save.to_json` / `from_json`: equal state, log and checkpoints. After every run the save is
also checked by `session.verify` (the log replayed from the seed meets every checkpoint and the
snapshot) and `game.replay` of the log equals the state.

A run starts at most `MAX_MISSIONS` missions (an accepted contract is left to the battle rules,
or fought out by the AI at once, or fought and debriefed at once) and lets at most
`MAX_LONG_WAITS` long waits pass (a year of upkeep ends the run, R28), so a run stays quick.
Under CI hypothesis' own `ci` profile derandomizes, so CI always plays the same runs.
"""

from __future__ import annotations

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from mac_tui.campaign import commands as campaign_commands
from mac_tui.campaign.accept import deployment_cost
from mac_tui.campaign.commands import (
    Accept,
    AdvanceDay,
    Assign,
    BuyWreck,
    Dismiss,
    Jump,
    NewCampaign,
    Repair,
    Salvage,
    Travel,
)
from mac_tui.campaign.ledger import starting_credits
from mac_tui.campaign.refit import check_loadout
from mac_tui.campaign.repair import needs_repair
from mac_tui.campaign.state import Campaign
from mac_tui.campaign.timeflow import MAX_ADVANCE
from mac_tui.combat import commands as combat_commands
from mac_tui.combat.commands import Withdraw
from mac_tui.combat.legal import legal_commands
from mac_tui.combat.stats import armor_split, full_structure
from mac_tui.game import (
    Accepted,
    Command,
    Outcome,
    Refused,
    parse_command,
    refusal,
    replay,
    step,
)
from mac_tui.players.ai import decide
from mac_tui.save import from_json, state_hash, to_json
from mac_tui.script import ai_turns
from mac_tui.session import Session, first_divergence, verify

from . import campaign_moves as moves

CAT = moves.CAT
START_CREDITS = CAT.start.company.credits
STANDING = CAT.economy.standing
DEBRIEF = (Salvage, BuyWreck, Dismiss)
TIME_PASSES = (AdvanceDay, Travel, Jump)
MAX_MISSIONS = 2
MAX_LONG_WAITS = 1
LONG_WAIT_AFTER = 12  # accepted commands before a long wait may come (it can end the run)
BATTLE_BURST = 40  # most AI orders one `battle_steps` rule gives
THEN = ("debrief", "debrief", "fight", "leave")  # what follows an accepted contract, same step


#: Every battle command class (a battle's last command settles its mission: O11's costs).
BATTLE_COMMANDS: tuple[type[Command], ...] = tuple(
    v
    for v in vars(combat_commands).values()
    if isinstance(v, type) and issubclass(v, Command) and v is not Command
)


def is_campaign_command(cmd: Command) -> bool:
    return type(cmd).__module__ == campaign_commands.__name__


class CampaignMachine(RuleBasedStateMachine):
    """One company's run; see the module docstring."""

    #: The optional modules the company plays with (O0.1; a subclass switches some on).
    RULES = ""
    #: The commands that may take the credits below 0 (or lower them while below 0).
    OVERDRAW: tuple[type[Command], ...] = TIME_PASSES
    #: The lowest credits a deployment may leave (§11.5: paid up front, so 0).
    FLOOR = 0

    def __init__(self) -> None:
        super().__init__()
        self.session = Session.new(0)
        self.missions = 0
        self.long_waits = 0

    # ---- plumbing ---------------------------------------------------------------------------
    @property
    def campaign(self) -> Campaign:
        c = self.session.state.campaign
        assert c is not None
        return c

    def run(self, cmd: Command, *, expect: bool | None = None) -> Outcome:
        """Apply one command as the player; check what a refusal or an acceptance promises.
        `expect`: True = must be accepted, False = must be refused, None = either."""
        s = self.session
        before, log, checks = s.state, list(s.commands), list(s.checkpoints)
        before_hash = state_hash(before)
        c = before.campaign
        why_not = None
        if c is not None and c.ended:
            why_not = f"the run is over ({c.ended})"
        elif c is not None and is_campaign_command(cmd) and not isinstance(cmd, NewCampaign):
            if c.mission is not None:
                why_not = "a mission is under way"
            elif c.after_action is not None and not isinstance(cmd, DEBRIEF):
                why_not = "the after-action report is open"
        elif before.battle is None and not is_campaign_command(cmd):
            why_not = "there is no battle"
        if why_not is not None:
            expect = False
        predicted = refusal(before, cmd)  # the engine's answer without stepping
        outcome = s.apply(cmd)
        text = cmd.to_text()
        assert predicted == (outcome.reason if isinstance(outcome, Refused) else None), text
        if isinstance(outcome, Refused):
            assert expect is not True, f"{text!r} refused: {outcome.reason}"
            assert outcome.reason.strip(), f"{text!r} refused without a reason"
            assert s.state is before
            assert state_hash(before) == before_hash, f"refused {text!r} changed the state"
            assert s.commands == log and s.checkpoints == checks
            event(f"refused {type(cmd).verb}")
        else:
            assert expect is not False, f"{text!r} accepted, but {why_not or 'it is junk'}"
            assert s.commands == [*log, cmd]
            assert parse_command(text) == cmd, f"{text!r} does not parse back"
            again = step(before, cmd)  # pure and deterministic
            assert isinstance(again, Accepted) and again.state == s.state, text
            now = s.state.campaign
            if c is not None and now is not None and now.credits < min(0, c.credits):
                # Every purchase checks the credits first: only days passing overdraw.
                assert isinstance(cmd, self.OVERDRAW), f"{text!r} overdrew the company"
            event(f"accepted {type(cmd).verb}")
        return outcome

    def draw_and_run(self, name: str, data: st.DataObject) -> None:
        self.run(moves.LEGAL[name](self.session.state, data))

    # ---- start ------------------------------------------------------------------------------
    @initialize(
        seed=st.integers(0, 2**32 - 1), name=st.sampled_from(["Iron Wolves", "  Ash  Co ", "X"])
    )
    def start(self, seed: int, name: str) -> None:
        self.session = Session.new(seed)
        # Nothing runs before a company exists.
        for line in ("advance-day 1", "buy weapon light_laser 1", "hire", "done", "end"):
            self.run(parse_command(line), expect=False)
        self.run(NewCampaign(""), expect=False)
        self.run(NewCampaign(name, rules=self.RULES), expect=True)
        assert self.campaign.company == " ".join(name.split())
        assert ",".join(self.campaign.ruleset) == self.RULES

    # ---- plausible campaign commands --------------------------------------------------------
    @rule(data=st.data())
    def buy(self, data: st.DataObject) -> None:
        self.draw_and_run("buy", data)

    @rule(data=st.data())
    def sell(self, data: st.DataObject) -> None:
        self.draw_and_run("sell", data)

    @rule(data=st.data())
    def buy_fuel(self, data: st.DataObject) -> None:
        self.draw_and_run("buy-fuel", data)

    @rule(data=st.data())
    def hire(self, data: st.DataObject) -> None:
        self.draw_and_run("hire", data)

    @rule(data=st.data())
    def assign(self, data: st.DataObject) -> None:
        self.draw_and_run("assign", data)

    @rule(data=st.data())
    def unassign(self, data: st.DataObject) -> None:
        self.draw_and_run("unassign", data)

    @rule(data=st.data())
    def refit(self, data: st.DataObject) -> None:
        self.draw_and_run("refit", data)

    @rule(data=st.data())
    def regroup(self, data: st.DataObject) -> None:
        self.draw_and_run("regroup", data)

    @rule(data=st.data())
    def repair(self, data: st.DataObject) -> None:
        self.draw_and_run("repair", data)

    @rule(data=st.data())
    def trip(self, data: st.DataObject) -> None:
        self.draw_and_run("trip", data)

    @rule(data=st.data())
    def advance(self, data: st.DataObject) -> None:
        self.draw_and_run("advance-day", data)

    @precondition(
        lambda self: (
            self.long_waits < MAX_LONG_WAITS and len(self.session.commands) >= LONG_WAIT_AFTER
        )
    )
    @rule(days=st.one_of(st.integers(20, 200), st.just(MAX_ADVANCE)))
    def long_wait(self, days: int) -> None:
        """Upkeep for months: a year of it ends the run (R28, 30 days below zero)."""
        self.long_waits += 1
        self.run(AdvanceDay(days))

    @rule(data=st.data())
    def sell_frame(self, data: st.DataObject) -> None:
        self.draw_and_run("sell-frame", data)

    @rule(data=st.data())
    def rename(self, data: st.DataObject) -> None:
        self.draw_and_run("rename", data)

    @precondition(
        lambda self: (
            self.campaign.mission is None
            and self.campaign.after_action is None
            and not self.campaign.ended
        )
    )
    @rule()
    def get_ready(self) -> None:
        """Between missions: repair what is hurt, seat idle pilots, wait for the bays."""
        for f in self.campaign.frames:
            if f.status in ("damaged", "destroyed"):
                self.run(Repair(f.id))
        for p in self.campaign.pilots:
            free = [f for f in self.campaign.frames if f.pilot is None and f.status != "destroyed"]
            if p.status != "kia" and self.campaign.frame_of(p.callsign) is None and free:
                self.run(Assign(p.callsign, free[0].id), expect=True)
        wait = max([f.busy_days for f in self.campaign.frames] + [0])
        if wait:
            self.run(AdvanceDay(min(wait, 10)), expect=True)

    # ---- missions -----------------------------------------------------------------------------
    def follow_up(self, then: str, data: st.DataObject) -> None:
        """After an accepted contract: leave the battle to the other rules, or fight it out
        with the AI for both sides, or fight it out and close the after-action report."""
        if then in ("fight", "debrief"):
            self.finish_battle()
        if then == "debrief" and not self.campaign.ended:
            self.debrief(data, data.draw(st.booleans()))

    @precondition(lambda self: self.missions < MAX_MISSIONS)
    @rule(data=st.data(), then=st.sampled_from(THEN))
    def accept(self, data: st.DataObject, then: str) -> None:
        outcome = self.run(moves.accept(self.session.state, data))
        if outcome.accepted:
            self.missions += 1
            assert self.session.state.battle is not None
            assert self.campaign.mission is not None
            self.follow_up(then, data)

    @precondition(lambda self: self.missions < MAX_MISSIONS)
    @rule(data=st.data(), payout=st.sampled_from(moves.LEVELS), then=st.sampled_from(THEN))
    def accept_easiest(self, data: st.DataObject, payout: int, then: str) -> None:
        """The easiest contract on the board with every ready frame (up to a lance)."""
        c = self.campaign
        ready = moves.ready_frames(c)[: moves.MAX_FRAMES]
        if not c.contracts or not ready:
            return
        easiest = min(c.contracts, key=lambda k: k.difficulty)
        free = c.mission is None and c.after_action is None and not c.ended
        cost = deployment_cost(c, ready)
        legal = free and c.credits - cost >= self.FLOOR
        outcome = self.run(Accept(easiest.id, payout, "+".join(ready)), expect=legal)
        if outcome.accepted:
            self.missions += 1
            # §11.5: the deployment is paid up front.
            assert self.campaign.ledger[-1].amount == -cost
            self.follow_up(then, data)

    @precondition(lambda self: self.session.state.battle is not None)
    @rule(n=st.integers(1, BATTLE_BURST))
    def battle_steps(self, n: int) -> None:
        """A few orders chosen by the AI for whichever side must act (deployment included)."""
        for _ in range(n):
            battle = self.session.state.battle
            if battle is None or battle.phase == "over":
                break
            self.run(decide(self.session.state).command, expect=True)

    @precondition(lambda self: self.session.state.battle is not None)
    @rule(data=st.data())
    def random_order(self, data: st.DataObject) -> None:
        """Any order the engine lists as legal must be accepted."""
        options = legal_commands(self.session.state, called_shots=False)
        if options:
            self.run(moves.pick(data, options), expect=True)

    @precondition(lambda self: self.session.state.battle is None)
    @rule(data=st.data())
    def legal_order(self, data: st.DataObject) -> None:
        """Any campaign command the engine lists as legal must be accepted (none once the run
        is over)."""
        options = moves.legal(self.session.state)
        if self.campaign.ended:
            assert options == []
        if self.missions >= MAX_MISSIONS:
            options = [c for c in options if not isinstance(c, Accept)]
        if options:
            cmd = moves.pick(data, options)
            self.run(cmd, expect=True)
            if isinstance(cmd, Accept):
                self.missions += 1

    @precondition(lambda self: self.session.state.battle is not None)
    @rule()
    def withdraw(self) -> None:
        """R14: the player may order the withdrawal in one of their activations."""
        battle = self.session.state.battle
        assert battle is not None
        unit = battle.active_unit
        mine = battle.phase == "combat" and unit is not None and unit.side == "player"
        self.run(Withdraw(), expect=True if mine else None)
        if mine:
            assert self.session.state.battle is None  # settled at once
            aa = self.campaign.after_action
            assert aa is not None and aa.result == "withdrawal"

    @precondition(lambda self: self.session.state.battle is not None)
    @rule()
    def finish_battle(self) -> None:
        before = len(self.session.commands)
        ai_turns(self.session, player_too=True)
        assert self.session.state.battle is None
        assert len(self.session.commands) > before
        c = self.campaign
        assert c.mission is None and c.after_action is not None
        assert c.missions_played >= 1

    @rule(data=st.data())
    def salvage(self, data: st.DataObject) -> None:
        aa = self.campaign.after_action
        legal = aa is not None and not aa.revealed and not self.campaign.ended
        before = self.campaign
        outcome = self.run(moves.salvage(self.session.state, data), expect=True if legal else None)
        if legal and outcome.accepted:
            after = self.campaign.after_action
            assert after is not None and after.revealed
            assert len(after.picked) <= after.picks <= len(after.pool)
            gained = sum(n for _, n in self.campaign.weapons) - sum(n for _, n in before.weapons)
            gained += sum(n for _, n in self.campaign.equipment)
            gained -= sum(n for _, n in before.equipment)
            assert gained == len(after.picked) + len(after.found)

    @precondition(lambda self: self.campaign.after_action is not None and not self.campaign.ended)
    @rule(data=st.data(), wreck=st.booleans())
    def debrief(self, data: st.DataObject, wreck: bool) -> None:
        """Close an open after-action report as a player would: the salvage picks, maybe a
        head-kill frame, then done."""
        aa = self.campaign.after_action
        assert aa is not None
        if not aa.revealed:
            self.salvage(data)
        if wreck and aa.frame_offers:
            self.run(moves.buy_wreck(self.session.state, data))
        self.run(Dismiss(), expect=True)
        assert self.campaign.after_action is None

    @rule(data=st.data())
    def buy_wreck(self, data: st.DataObject) -> None:
        self.draw_and_run("buy-wreck", data)

    @rule(data=st.data())
    def done(self, data: st.DataObject) -> None:
        self.draw_and_run("done", data)

    # ---- junk -----------------------------------------------------------------------------------
    @rule(data=st.data())
    def junk(self, data: st.DataObject) -> None:
        self.run(moves.pick(data, moves.junk(self.session.state)), expect=False)

    # ---- save, load, replay -----------------------------------------------------------------
    def check_save(self) -> None:
        """Save -> load gives the same game: state, log, checkpoints, seed."""
        s = self.session
        loaded = from_json(to_json(s.to_save()))
        assert loaded.state == s.state
        assert state_hash(loaded.state) == state_hash(s.state)
        assert list(loaded.commands) == s.commands
        assert list(loaded.checkpoints) == s.checkpoints
        assert loaded.seed == s.seed
        again = Session.from_save(loaded)
        assert again.state == s.state and again.commands == s.commands

    @rule()
    def save_and_load(self) -> None:
        """At any moment, in battle or after-action included."""
        self.check_save()

    def teardown(self) -> None:
        """The whole run: saved and loaded, replayed (`replay --verify`, every checkpoint on
        the way) and refolded from the seed."""
        s = self.session
        c = s.state.campaign
        if c is None:
            return
        self.check_save()
        save = from_json(to_json(s.to_save()))
        verdict = verify(save)
        assert verdict.ok, verdict.message
        assert first_divergence(save) is None  # every checkpoint matches too
        assert replay(s.seed, s.commands) == s.state
        event(f"missions played: {c.missions_played}")
        event("run ended" if c.ended else "run still going")

    # ---- invariants ---------------------------------------------------------------------------
    @invariant()
    def books_balance(self) -> None:
        c = self.campaign
        assert c.credits == START_CREDITS + sum(e.amount for e in c.ledger)
        assert starting_credits(c) == START_CREDITS
        balance = START_CREDITS
        for e in c.ledger:
            balance += e.amount
            assert e.balance == balance, e
            assert e.day <= c.day
        assert [e.day for e in c.ledger] == sorted(e.day for e in c.ledger)
        if c.ledger:
            assert c.credits == c.ledger[-1].balance

    @invariant()
    def within_bounds(self) -> None:
        c = self.campaign
        assert {f for f, _ in c.standing} == set(CAT.factions)
        for faction, value in c.standing:
            assert STANDING.min <= value <= STANDING.max, (faction, value)
        assert 0 <= c.fuel <= moves.CAPACITY
        assert c.reputation >= 0
        assert c.day >= 1 and c.negative_days >= 0
        assert c.place in CAT.places

    @invariant()
    def stock_never_negative(self) -> None:
        c = self.campaign
        for items, table in ((c.weapons, CAT.weapons), (c.equipment, CAT.equipment)):
            assert all(n > 0 and item in table for item, n in items), items
            assert [i for i, _ in items] == sorted({i for i, _ in items})
        places = [m.place for m in c.markets]
        assert places == sorted(set(places))
        for m in c.markets:
            assert CAT.places[m.place].market
            keys = [(s.kind, s.item) for s in m.stock]
            assert len(keys) == len(set(keys))
            assert all(s.qty > 0 for s in m.stock), m

    @invariant()
    def frames_legal(self) -> None:
        c = self.campaign
        ids = [f.id for f in c.frames]
        assert len(ids) == len(set(ids))
        for f in c.frames:
            ch = CAT.chassis[f.chassis]
            assert check_loadout(ch, f.weapons, f.equipment) is None, f
            full_armor, full_struct = armor_split(ch), full_structure(ch)
            assert all(0 <= a <= m for a, m in zip(f.armor, full_armor, strict=True)), f
            assert all(0 <= s <= m for s, m in zip(f.structure, full_struct, strict=True)), f
            assert f.busy_days >= 0 and f.components >= 0
            if f.status == "repairing":
                assert f.busy_days > 0, f
            if f.status == "destroyed":
                assert f.pilot is None, f
            if f.status in ("ready", "damaged"):
                # R20: Damaged exactly when repair is needed (else it could never be fixed).
                assert (f.status == "damaged") == needs_repair(f), f

    @invariant()
    def pilots_seated_once(self) -> None:
        c = self.campaign
        callsigns = [p.callsign for p in c.pilots]
        assert len(callsigns) == len(set(callsigns))
        seated = [f.pilot for f in c.frames if f.pilot is not None]
        assert len(seated) == len(set(seated)), seated
        for callsign in seated:
            assert c.pilot(callsign).status != "kia", callsign
        for p in c.pilots:
            assert (p.status == "injured") == (p.injury_days > 0), p

    @invariant()
    def mission_and_battle_agree(self) -> None:
        state = self.session.state
        c = self.campaign
        assert (c.mission is None) == (state.battle is None)
        assert c.mission is None or c.after_action is None
        if c.mission is not None:
            deployed = [fid for _, fid in c.mission.frames]
            assert len(deployed) == len(set(deployed))
            assert all(c.frame(fid).pilot is not None for fid in deployed)
        else:
            assert all(k.place == c.place for k in c.contracts)
        ids = [k.id for k in c.contracts]
        assert len(ids) == len(set(ids))
        aa = c.after_action
        if aa is not None:
            assert 0 <= aa.picks <= len(aa.pool)
            assert all(0 <= i < len(aa.pool) for i in aa.picked)
        assert c.missions_won <= c.missions_played <= self.missions

    @invariant()
    def log_agrees(self) -> None:
        s = self.session
        assert len(s.commands) == len(s.checkpoints) == s.state.commands_applied


def machine_settings(examples: int) -> settings:
    """Bounded runs: `examples` runs of at most 50 steps."""
    return settings(
        max_examples=examples,
        stateful_step_count=50,
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


CampaignMachine.TestCase.settings = machine_settings(40)
TestCampaignMachine = CampaignMachine.TestCase


class O11CampaignMachine(CampaignMachine):
    """The same run with optional modules O3, O10 and O11 (issue 19): credits still equal the
    ledger; a deployment may leave the credits down to O11.7's floor and settlement (mission
    costs) may take them below 0 (O11.6); every contract carries its O11.1 objectives, every
    battle of a mission its tally, and every after-action report a line per objective."""

    RULES = "O3,O10,O11"
    OVERDRAW = (*TIME_PASSES, Accept, *BATTLE_COMMANDS)
    FLOOR = CAT.objectives.debt.floor

    @invariant()
    def objectives_carried(self) -> None:
        c = self.campaign
        rules = CAT.objectives.draw
        for k in c.contracts:
            visible = sum(not o.hidden for o in k.objectives)
            assert visible == (
                rules.secondary_low if k.difficulty <= rules.low_max else rules.secondary_high
            ), k
            assert sum(o.hidden for o in k.objectives) <= 1
            assert all(not o.met and o.hex is None for o in k.objectives)
        battle = self.session.state.battle
        if c.mission is not None and battle is not None:
            assert battle.tally is not None
            assert [o.id for o in battle.objectives] == [
                o.id for o in c.mission.contract.objectives
            ]
        aa = c.after_action
        if aa is not None:
            event("O11 after-action")
            lines = [line for line in aa.report if "bjective OB" in line]
            assert len(lines) == len(aa.objectives) == len(aa.contract.objectives)
            assert any(line.startswith("Mission costs:") for line in aa.report)


O11CampaignMachine.TestCase.settings = machine_settings(15)
TestO11CampaignMachine = O11CampaignMachine.TestCase


class ThirdPartiesMachine(CampaignMachine):
    """The same run with optional module O10 on: contracts with allied and neutral lances,
    battles with four sides, the 90% reward and the salvage they change; the books balance."""

    RULES = "O10"

    @invariant()
    def third_parties_shown(self) -> None:
        """O10.1: a contract's third party is one of the two kinds and matches its roll."""
        gen = CAT.third_parties.generation
        for k in self.campaign.contracts:
            third = k.third_party
            if third is not None:
                ally = third.roll <= gen.ally_max
                assert third.kind == ("ally" if ally else "neutral"), third
                assert third.roll <= gen.neutral_max and third.frames
                assert third.faction != k.opponent
                assert (third.faction == k.employer) == (third.kind == "ally")
        battle = self.session.state.battle
        if battle is not None:
            for info in battle.sides[2:]:
                event(f"a battle with the {info.side} side")
        aa = self.campaign.after_action
        if aa is not None and aa.contract.third_party is not None:
            event(f"settled with a third party: {aa.contract.third_party.kind}")


ThirdPartiesMachine.TestCase.settings = machine_settings(15)
TestThirdPartiesMachine = ThirdPartiesMachine.TestCase
